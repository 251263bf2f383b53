/**
 * Loads the conformance suite's spec files, unchanged, into the test files of the mutation run: one carrier
 * file per spec file (harness/carriers.ts writes them for each run), each importing its spec once. A target's
 * worker then loads only the carriers holding the checks its project selects — a defect's few rules load a
 * spec or two, not the suite (≈ 0.25 s of CPU per worker) — while the conformant mock's loads them all.
 *
 * A failed check keeps its worker: the hook below marks a test that failed as expected-to-fail once it has
 * failed (the verdict stays in the result, `status: "failed"`, and in a `mutation-failure` annotation), so
 * Playwright does not start a fresh worker — and remake its keys and token mint — after every caught defect.
 */
import { pathToFileURL } from 'node:url';
import { test } from '@playwright/test';

export const FAILURE_ANNOTATION = 'mutation-failure';

/** Registers the hook in the file being loaded (each carrier calls it: a file's hooks are its own). */
function keepWorkerOnFailure(): void {
  // biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take their fixtures by destructuring.
  test.afterEach(({}, testInfo) => {
    if (testInfo.status === 'failed' && testInfo.expectedStatus === 'passed') {
      testInfo.annotations.push({ type: FAILURE_ANNOTATION, description: 'the check failed' });
      testInfo.expectedStatus = 'failed';
    }
  });
}

/** What a carrier file does: the hook, then its one module (a spec file, the observer verdicts), whose tests register in the carrier. */
export async function carrySpec(specPath: string): Promise<void> {
  keepWorkerOnFailure();
  await import(pathToFileURL(specPath).href);
}
