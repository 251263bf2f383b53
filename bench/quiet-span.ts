/**
 * The longest span of a paced run in which the target received nothing, and the tests that held the workers
 * through it — read from the target's request journal and Playwright's JSON report of the same run. A span
 * where every worker holds a test waiting for one counter's next window, while other tests wait in Playwright's
 * queue, is wall time no pace asks for (docs/performance.md "#38, ninth pass").
 */

/** One test's run, from Playwright's JSON report. */
export interface TestSpan {
  readonly title: string;
  readonly file: string;
  readonly worker: number;
  readonly startMs: number;
  readonly endMs: number;
}

interface JsonResult {
  readonly startTime: string;
  readonly duration: number;
  readonly parallelIndex: number;
}
interface JsonSuite {
  readonly suites?: readonly JsonSuite[];
  readonly specs?: readonly {
    readonly title: string;
    readonly file: string;
    readonly tests: readonly { readonly results: readonly JsonResult[] }[];
  }[];
}

/** Every test result of a Playwright JSON report, as a span of wall-clock time (ms since the epoch). */
export function testSpans(report: { readonly suites?: readonly JsonSuite[] }): TestSpan[] {
  const out: TestSpan[] = [];
  const walk = (suite: JsonSuite): void => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        for (const r of t.results) {
          const startMs = Date.parse(r.startTime);
          out.push({
            title: spec.title,
            file: spec.file,
            worker: r.parallelIndex,
            startMs,
            endMs: startMs + r.duration,
          });
        }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

export interface QuietSpan {
  readonly fromMs: number;
  readonly toMs: number;
  /** The tests running from before the span began until after it ended. */
  readonly holding: readonly TestSpan[];
  /** The tests that started only after it (they waited in the queue, or came later in it). */
  readonly after: readonly TestSpan[];
}

/** The longest gap between two consecutive request times (ms), with the tests across it; undefined: < 2 requests. */
export function longestQuietSpan(
  requestTimes: readonly number[],
  tests: readonly TestSpan[],
): QuietSpan | undefined {
  const times = [...requestTimes].sort((a, b) => a - b);
  let best: [number, number] | undefined;
  for (let i = 1; i < times.length; i++) {
    const from = times[i - 1] as number;
    const to = times[i] as number;
    if (best === undefined || to - from > best[1] - best[0]) best = [from, to];
  }
  if (best === undefined) return undefined;
  const [fromMs, toMs] = best;
  return {
    fromMs,
    toMs,
    holding: tests.filter((t) => t.startMs <= fromMs && t.endMs >= toMs),
    after: tests.filter((t) => t.startMs >= toMs),
  };
}
