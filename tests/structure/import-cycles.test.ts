/**
 * No import cycle anywhere in the project, type-only imports included (docs/design.md "Imports run one
 * way"). The graph is read with dpdm, which parses TypeScript with its own compiler copy: the project's
 * TypeScript 7 has no JavaScript compiler API, and regular expressions over source would miss re-exports
 * and multi-line imports.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { findCycles, SOURCE_GLOBS } from '../../scripts/import-graph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('the project has no import cycle', async () => {
  const cycles = await findCycles(SOURCE_GLOBS, ROOT);
  expect(cycles.map((cycle) => cycle.join(' → '))).toEqual([]);
});

test('a cycle made of type-only imports is found', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-cycle-'));
  try {
    await writeFile(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = { b?: B };\n");
    await writeFile(path.join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport type B = { a?: A };\n");
    await writeFile(path.join(dir, 'c.ts'), 'export const c = 1;\n');
    const cycles = await findCycles(['*.ts'], dir);
    expect(cycles.map((cycle) => [...cycle].sort())).toEqual([['a.ts', 'b.ts']]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
