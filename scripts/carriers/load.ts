/**
 * What a carrier file (write.ts) runs: loads one of the conformance suite's spec files, unchanged, into a test
 * file of a harness run — the mutation run (tests/mutation/) and the stand-in corpus run
 * (scripts/stand-in-corpus/). A project's worker then loads only the carriers holding the checks it selects —
 * a defect's few rules load a spec or two, not the suite (≈ 0.25 s of CPU per worker).
 *
 * A failed check keeps its worker: the hook below marks a test that failed as expected-to-fail once it has
 * failed (the verdict stays in the result, `status: "failed"`, and in a `kept-worker-failure` annotation), so
 * Playwright does not start a fresh worker — and load the suite and remake its keys and token mint again —
 * after every caught defect or contradicted rule. A harness reads the result's status, never Playwright's
 * "expected" (tests/mutation/harness/run.ts; the corpus's report through specs/report/collect.ts). The product
 * never does this: for a user's run a failed check is Playwright's failure.
 */
import { pathToFileURL } from 'node:url';
import { test } from '@playwright/test';

export const FAILURE_ANNOTATION = 'kept-worker-failure';

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
