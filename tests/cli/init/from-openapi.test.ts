/**
 * `gatecheck init` (docs/package.md): on OpenAPI documents of three shapes the profile it writes matches the
 * expected profile file beside the document, validates against the profile schema, holds no literal
 * credential, and every guess is both in the file's `todo` list and printed. A document it cannot use is a
 * one-line usage error, exit 2.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { schemaValidator } from '../../../shared/json-schema.ts';
import { scratch } from '../cli.ts';

const DOCUMENTS = path.join(import.meta.dirname, 'documents');
const SHAPES = [
  ['global-security-3.0.yaml', '3.0 YAML, global security with per-operation overrides'],
  ['apikey-oauth2-3.1.json', '3.1 JSON with apiKey in Authorization and oauth2 client credentials'],
  ['public-and-admin-3.1.yaml', '3.1 YAML with public and admin-only operations'],
  ['extensions-3.1.yaml', '3.1 YAML with x-gatecheck-* extensions, one of them unusable'],
] as const;
const SCHEMA = path.join(import.meta.dirname, '../../../fixtures/schemas/profile.schema.json');

for (const [file, shape] of SHAPES) {
  test(`init on ${shape} → the expected profile, valid, its guesses printed as a to-do list`, async () => {
    const s = await scratch();
    try {
      const result = await s.gatecheck([
        'init',
        path.join(DOCUMENTS, file),
        '--out',
        'profile.json',
        '--writes',
      ]);
      expect(result.code, result.stderr).toBe(0);
      const written = JSON.parse(await readFile(path.join(s.dir, 'profile.json'), 'utf8')) as {
        todo: string[];
        identities: unknown;
      };
      const expected = JSON.parse(
        await readFile(
          path.join(DOCUMENTS, file.replace(/\.(yaml|json)$/, '.expected-profile.json')),
          'utf8',
        ),
      );
      expect(written).toEqual(expected);
      const validate = schemaValidator(SCHEMA);
      expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
      for (const item of written.todo) expect(result.stdout).toContain(item);
      // Credentials only as environment references: every leaf under identities that is a secret is { env }.
      const leaves = JSON.stringify(written.identities).match(
        /"(bearer|apikey|username|password|clientId|clientSecret)":"/g,
      );
      expect(leaves).toBeNull();
    } finally {
      await s.dispose();
    }
  });
}

test('init on a document that is not OpenAPI 3 → one line naming it, exit 2, nothing written', async () => {
  const s = await scratch();
  try {
    const result = await s.gatecheck(['init', path.join(DOCUMENTS, '../from-openapi.test.ts')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('gatecheck: init: cannot read the OpenAPI document');
  } finally {
    await s.dispose();
  }
});
