/**
 * `gatecheck init` (docs/package.md): on OpenAPI documents of three shapes the profile it writes matches the
 * expected profile file beside the document, validates against the profile schema, holds no literal
 * credential, and every guess is both in the file's `todo` list and printed. A document it cannot use is a
 * one-line usage error, exit 2.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
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

test('a section the schema check leaves out takes its variables and to-do lines with it: none names what the profile does not read', async () => {
  const s = await scratch();
  try {
    // The document's x-gatecheck-jwt names an algorithm the profile refuses (RFC 8725 §3.1: never "none").
    const yaml = (await readFile(path.join(DOCUMENTS, 'extensions-3.1.yaml'), 'utf8')).replace(
      'algorithms: [HS256]',
      'algorithms: [none]',
    );
    await writeFile(path.join(s.dir, 'doc.yaml'), yaml);
    const result = await s.gatecheck(['init', 'doc.yaml', '--out', 'profile.json']);
    expect(result.code, result.stderr).toBe(0);
    const written = JSON.parse(await readFile(path.join(s.dir, 'profile.json'), 'utf8')) as {
      todo: string[];
      jwt?: unknown;
    };
    expect(written.jwt).toBeUndefined();
    expect(written.todo.some((t) => t.startsWith('/jwt: ') && t.endsWith('left out'))).toBe(true);
    expect(written.todo.filter((t) => t.startsWith('/jwt/'))).toEqual([]);
    expect(written.todo.join('\n')).not.toContain('GATECHECK_JWT_SECRET');
    expect(result.stdout).not.toContain('GATECHECK_JWT_SECRET');
    expect(await readFile(path.join(s.dir, 'profile.env.example'), 'utf8')).not.toContain(
      'GATECHECK_JWT_SECRET',
    );
  } finally {
    await s.dispose();
  }
});

/** Runs init on `args` in a scratch directory: one line on stderr, exit 2, nothing written (no profile, no .env.example). */
async function refused(args: readonly string[]): Promise<string> {
  const s = await scratch();
  try {
    const before = await readdir(s.dir, { recursive: true });
    const result = await s.gatecheck(['init', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readdir(s.dir, { recursive: true })).toEqual(before);
    return result.stderr;
  } finally {
    await s.dispose();
  }
}

test('init on a file that is not JSON or YAML of an object → one line naming it, exit 2, nothing written', async () => {
  const file = path.join(DOCUMENTS, '../from-openapi.test.ts');
  expect(await refused([file])).toBe(
    `gatecheck: init: cannot read ${file}: it is neither JSON nor YAML holding an object, as an OpenAPI document is\n`,
  );
});

test('init on JSON that is not an OpenAPI document → one clear line, exit 2', async () => {
  const file = path.join(DOCUMENTS, '../../../../fixtures/schemas/profile.schema.json');
  expect(await refused([file])).toBe(
    `gatecheck: init: cannot read ${file}: it is JSON or YAML, but not an OpenAPI document (no "openapi" or "swagger" field)\n`,
  );
});

test('init on a missing file → one line saying so once, exit 2', async () => {
  const stderr = await refused(['no-such-openapi.yaml']);
  expect(stderr).toMatch(/^gatecheck: init: cannot read \S+no-such-openapi\.yaml: no such file\n$/);
  expect(stderr.match(/no-such-openapi/g)).toHaveLength(1);
});

test('init on a URL nothing answers (a closed loopback port) → the reason, not only "fetch failed"', async () => {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  const url = `http://127.0.0.1:${port}/openapi.json`;
  expect(await refused([url])).toBe(
    `gatecheck: init: cannot read ${url}: no answer from 127.0.0.1:${port} (connection refused)\n`,
  );
});

test('init --out into a directory that does not exist → one line, exit 2', async () => {
  const stderr = await refused([
    path.join(DOCUMENTS, 'and-requirements-3.1.yaml'),
    '--out',
    'no/such/dir/p.json',
  ]);
  expect(stderr).toMatch(
    /^gatecheck: init: cannot write \S+no\/such\/dir\/p\.json: its directory does not exist\n$/,
  );
});
