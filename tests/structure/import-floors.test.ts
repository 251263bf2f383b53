/**
 * The mock's imports run one way (docs/design.md "The mock's pipeline"): CLI → server → app → control →
 * pipeline → features → http → util → shared. An upward import — between two folders that import each
 * other, directly or around a loop — fails here, whether or not it closes a file-level cycle.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readImportGraph, upwardImports } from '../../scripts/import-graph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('the mock has no upward import', async () => {
  const graph = await readImportGraph(['mock/**/*.ts'], ROOT);
  const upward = upwardImports(graph).map(([from, to]) => `${from} → ${to}`);
  expect(upward).toEqual([]);
});
