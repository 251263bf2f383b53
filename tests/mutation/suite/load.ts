/**
 * Loads the conformance suite's spec files, unchanged, into the two test files of the mutation run —
 * conformance.mutation.ts (specs/conformance/) and fuzz.mutation.ts (specs/fuzz/) — so that a target's run is
 * one test group per file, each in one worker.
 * Spec files are found, not listed: a spec added to specs/ is in the next mutation run.
 *
 * A failed check keeps its worker: the hook below marks a test that failed as expected-to-fail once it has
 * failed (the verdict stays in the result, `status: "failed"`, and in a `mutation-failure` annotation), so
 * Playwright does not start a fresh worker — and remake its keys and token mint — after every caught defect.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '@playwright/test';
import { ROOT } from '../harness/paths.ts';

export const FAILURE_ANNOTATION = 'mutation-failure';

/** Registers the hook in the file being loaded (called by each aggregate file: modules load once per process). */
function keepWorkerOnFailure(): void {
  // biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take their fixtures by destructuring.
  test.afterEach(({}, testInfo) => {
    if (testInfo.status === 'failed' && testInfo.expectedStatus === 'passed') {
      testInfo.annotations.push({ type: FAILURE_ANNOTATION, description: 'the check failed' });
      testInfo.expectedStatus = 'failed';
    }
  });
}

function specFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...specFiles(path));
    else if (entry.name.endsWith('.spec.ts')) out.push(path);
  }
  return out.sort();
}

/**
 * Imports the spec files of one part of the suite: `fuzz` is specs/fuzz/ (fuzz.* and jwt.attack.* rules),
 * `conformance` everything else. Each spec module registers its tests when first imported, and modules load
 * once per process, so each spec belongs to exactly one aggregate file.
 */
export async function loadSpecs(part: 'conformance' | 'fuzz'): Promise<void> {
  keepWorkerOnFailure();
  const specs = join(ROOT, 'specs');
  for (const file of specFiles(specs)) {
    const isFuzz = relative(specs, file).split(sep)[0] === 'fuzz';
    if (isFuzz === (part === 'fuzz')) await import(pathToFileURL(file).href);
  }
}
