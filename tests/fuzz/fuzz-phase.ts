/**
 * Reads a Playwright JSON report of a conformance run and prints the fuzz phase's numbers: cases sent
 * (from each fuzz test's `fuzz` annotation), the wall time from the first fuzz test's start to the last
 * one's end, and cases per second over that wall time.
 *
 *   npx playwright test specs/fuzz --reporter=json > fuzz-run.json
 *   npx tsx tests/fuzz/fuzz-phase.ts fuzz-run.json
 */
import { readFileSync } from 'node:fs';

interface Result {
  readonly startTime: string;
  readonly duration: number;
  readonly status: string;
}
interface Suite {
  readonly suites?: readonly Suite[];
  readonly specs?: readonly {
    readonly title: string;
    readonly tests: readonly {
      readonly annotations: readonly { type: string; description?: string }[];
      readonly results: readonly Result[];
    }[];
  }[];
}

const FUZZ_STATS = /; (\d+) cases(?: \+ (\d+) shrinking)? in (\d+) ms/;

export function fuzzPhase(report: { suites: readonly Suite[] }): {
  tests: number;
  cases: number;
  wallMs: number;
  propertyMs: number;
} {
  let tests = 0;
  let cases = 0;
  let propertyMs = 0;
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  const walk = (suite: Suite): void => {
    for (const child of suite.suites ?? []) walk(child);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const stats = FUZZ_STATS.exec(test.annotations.find((a) => a.type === 'fuzz')?.description ?? '');
        if (!stats) continue;
        tests++;
        cases += Number(stats[1]) + Number(stats[2] ?? 0);
        propertyMs += Number(stats[3]);
        for (const result of test.results) {
          const began = Date.parse(result.startTime);
          start = Math.min(start, began);
          end = Math.max(end, began + result.duration);
        }
      }
    }
  };
  for (const suite of report.suites) walk(suite);
  return { tests, cases, wallMs: tests === 0 ? 0 : end - start, propertyMs };
}

const file = process.argv[2];
if (file) {
  const { tests, cases, wallMs, propertyMs } = fuzzPhase(
    JSON.parse(readFileSync(file, 'utf8')) as { suites: Suite[] },
  );
  const rate = wallMs > 0 ? Math.round((cases / wallMs) * 1000) : 0;
  process.stdout.write(
    `fuzz phase: ${tests} tests, ${cases} cases, ${wallMs} ms wall (first fuzz test start → last end), ${rate} cases/s; ` +
      `property time summed over workers ${propertyMs} ms\n`,
  );
}
