/**
 * The mock's and the CLI's imports run one way (docs/design.md "The mock's pipeline", "Imports run one way"):
 * the mock CLI → server → app → control → pipeline → features → http → util → shared; the CLI's commands →
 * their rooms (cli/init, cli/attest) → the suite they run (specs/) → shared. An upward import — between two
 * folders that import each other, directly or around a loop — fails here, whether or not it closes a
 * file-level cycle. Only the imports made by files of the half under test count. The suite (specs/) has its
 * floors declared room by room below, and any import against them fails.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readImportGraph, upwardImports } from '../../scripts/import-graph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The upward imports made by files under `folder`, as `from → to`. */
/**
 * The suite's floors, top first (as Playwright's source declares per folder what it may import, DEPS.list):
 * a file of `specs/` may import files of its own room and of rooms on lower floors only. A room not listed
 * here fails too, so a new folder is given its floor when it is made. The checks themselves (`*.spec.ts`) are
 * the top: Playwright loads them, nothing imports them. Below the suite: `shared/` and the bundled mock
 * (`mock/`, which the set-up starts); the CLI (`cli/`) is above it (docs/design.md "Imports run one way").
 */
const SPECS_FLOORS = [
  'specs/project', // the package face: `gatecheck/playwright`
  'specs/report', // the conformance report, read after the run
  'specs/kit', // what assembles a check: the fixtures, the kit, the fuzz specs' fixtures
  'specs/observe', // the observers of every answer, and their verdicts
  'specs/setup', // the run's set-up and the runner's host for it
  'specs/verdict', // the verifiers: a rule's answer becomes a verdict
  'specs/wire', // the checks' HTTP client
  'specs/fuzz', // the fuzz engine, its plans, grammars and clients
  'specs/credentials', // tokens fetched at run time
  'specs/run-target.ts', // a project's target and profile, the set-up's variables in a worker
  'specs/run', // the scheduler, its coordinator and stores, the line to the runner's host
  'specs/lib', // ground-floor helpers: budget, TLS, redaction, parsers, evidence
  'specs/declaration', // the interface a profile declares: applicability, class, deviations (issue #66)
  'specs/profile', // the profile: types, loading, credential maker, rate policy
  'specs/rules', // the rules' catalogue
] as const;

/** The floor a file stands on (0 = top), by its longest declared room; undefined for an undeclared room. */
function specsFloorOf(file: string): number | undefined {
  if (file.startsWith('specs/') && file.endsWith('.spec.ts')) return -1;
  const index = SPECS_FLOORS.findIndex((room) => file === room || file.startsWith(`${room}/`));
  return index === -1 ? undefined : index;
}

/** The imports of `specs/` files that run back up, or into an undeclared room, or out to the CLI. */
function specsArrowsUp(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const wrong: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith('specs/')) continue;
    const mine = specsFloorOf(from);
    if (mine === undefined) {
      wrong.push(`${from}: its room has no floor in SPECS_FLOORS`);
      continue;
    }
    for (const to of targets) {
      if (to.startsWith('shared/') || to.startsWith('mock/')) continue;
      const theirs = to.startsWith('specs/') ? specsFloorOf(to) : undefined;
      const sameRoom = theirs !== undefined && theirs >= 0 && theirs === mine;
      if (theirs === undefined || (!sameRoom && theirs <= mine)) wrong.push(`${from} → ${to}`);
    }
  }
  return wrong;
}

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

test('the suite has no import against its declared floors', async () => {
  const graph = await readImportGraph(['specs/**/*.ts'], ROOT);
  expect(specsArrowsUp(graph)).toEqual([]);
});

test('an import from a lower floor, one from an undeclared room and one out to the CLI are each found', () => {
  const graph = new Map([
    ['specs/lib/budget.ts', ['specs/kit/kit.ts', 'shared/env.ts']],
    ['specs/kit/kit.ts', ['specs/lib/budget.ts', 'specs/kit/fixtures.ts', 'mock/server.ts']],
    ['specs/fuzz/jwt.spec.ts', ['specs/kit/fixtures.ts']],
    ['specs/attic/old.ts', []],
    ['specs/run/scheduler.ts', ['cli/run.ts']],
  ]);
  expect(specsArrowsUp(graph)).toEqual([
    'specs/lib/budget.ts → specs/kit/kit.ts',
    'specs/attic/old.ts: its room has no floor in SPECS_FLOORS',
    'specs/run/scheduler.ts → cli/run.ts',
  ]);
});
