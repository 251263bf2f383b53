/**
 * One Ajv set-up for the product (shared/json-schema.ts): the mock's configuration, policy and control API
 * bodies and the suite's profile all validate through it, so options and keywords cannot drift apart.
 * (tests/report/schema.ts checks the report against its draft 2020-12 schema with Ajv2020: a test tool.)
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { importersOf } from '../../scripts/import-graph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('only shared/json-schema.ts imports ajv in the mock, the suite and the CLI', async () => {
  const importers = await importersOf(
    'ajv',
    ['mock/**/*.ts', 'specs/**/*.ts', 'cli/**/*.ts', 'shared/**/*.ts'],
    ROOT,
  );
  expect(importers).toEqual(['shared/json-schema.ts']);
});
