/**
 * The mock's and the CLI's imports run one way (docs/design.md "The mock's pipeline", "Imports run one way"):
 * the mock CLI → server → app → control → pipeline → features → http → util → shared; the CLI's commands →
 * their rooms (cli/init, cli/attest) → the suite they run (specs/) → shared. An upward import — between two
 * folders that import each other, directly or around a loop — fails here, whether or not it closes a
 * file-level cycle. Only the imports made by files of the half under test count: the suite's own folders
 * (specs/) are not yet one-way, and are reported, not guarded (docs/design.md).
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readImportGraph, upwardImports } from '../../scripts/import-graph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The upward imports made by files under `folder`, as `from → to`. */
async function upwardFrom(folder: string): Promise<string[]> {
  const graph = await readImportGraph([`${folder}/**/*.ts`], ROOT);
  return upwardImports(graph)
    .filter(([from]) => from.startsWith(`${folder}/`))
    .map(([from, to]) => `${from} → ${to}`);
}

test('the mock has no upward import', async () => {
  expect(await upwardFrom('mock')).toEqual([]);
});

test('the CLI has no upward import', async () => {
  expect(await upwardFrom('cli')).toEqual([]);
});
