/**
 * The schemes side by side (issue #72): each authenticated scheme and the 401 path as a fraction of bare
 * node:http answering the same bytes in the same round (the case's own ceiling, bench/ceiling-child.ts), and
 * how far each is behind the fastest of them. A cost that only one path pays — as Apikey was reported to, 40 %
 * behind Bearer on the same route — shows here as that path falling behind the others, whatever the machine's
 * absolute speed.
 *
 * A path is behind in a round when it is more than `MAX_BEHIND` behind that round's fastest path both by
 * requests/s over its ceiling and by its ceiling's CPU per request over its own; the check is missed when a
 * path is behind in EVERY round. A cost the path really pays shows in both readings and in each round, while on
 * a shared machine either reading of one round moves by ±30 % (a neighbour taking the core during a case or
 * its ceiling). Measured with bench/mock-ab.ts at load average 5–15 on two cores (docs/performance.md, issue
 * #72): 40 µs added to the Apikey and 401 paths put them 20–68 % behind by both readings in each of 5
 * rounds, while the unchanged mock had paths behind in up to 4 of 5 — and in one 3-round run, in all 3 (a
 * false miss). Without a CPU reading, requests/s alone decides.
 */

/** Median and spread over rounds (bench/mock-bench.ts's `Spread`, repeated here so this file imports nothing). */
export interface RoundSpread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** What the check reads of one path: its fractions of bare node:http, one per round, rounds in the same order. */
export interface PathReading {
  readonly id: string;
  readonly label: string;
  /** Requests/s over its ceiling's. */
  readonly ratios: readonly number[];
  /** Its ceiling's CPU per request over its own; as many as `ratios`, or absent. */
  readonly cpuRatios?: readonly number[] | undefined;
}

export interface PathShare {
  readonly id: string;
  readonly label: string;
  /** Over rounds: its ratio over the fastest path's of the round. */
  readonly ofFastest: RoundSpread;
  /** The same by CPU. */
  readonly cpuOfFastest?: RoundSpread;
  /** Rounds in which it was more than `maxBehind` behind the round's fastest by both readings. */
  readonly roundsBehind: number;
  readonly rounds: number;
  /** Behind in every round. */
  readonly behind: boolean;
}

export interface SchemeSpread {
  readonly maxBehind: number;
  readonly paths: readonly PathShare[];
  /** The path with the highest median share of the fastest (the one most often fastest). */
  readonly fastest: string;
  /** The path with the lowest median share of the fastest by requests/s. */
  readonly slowest: string;
  readonly met: boolean;
}

/** The cases compared: every authenticated scheme of the bench's "auth" mock, and the 401 path. */
export const SPREAD_CASES: readonly string[] = ['bearer-rs256', 'bearer-es256', 'basic', 'apikey', '401'];

/** Issue #72: a path more than 15 % behind the fastest is a cost that path alone pays. */
export const MAX_BEHIND = 0.15;

function spreadOf(values: readonly number[]): RoundSpread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

/** Each path's value over the round's highest, round by round. */
function sharesOfFastest(perPath: readonly (readonly number[])[], rounds: number): number[][] {
  const shares = perPath.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const top = Math.max(...perPath.map((values) => values[round] ?? 0));
    perPath.forEach((values, i) => {
      shares[i]?.push(top > 0 ? (values[round] ?? 0) / top : 0);
    });
  }
  return shares;
}

export function schemeSpread(readings: readonly PathReading[], maxBehind = MAX_BEHIND): SchemeSpread {
  if (readings.length === 0) throw new TypeError('schemeSpread: no paths to compare');
  const rounds = Math.min(...readings.map((r) => r.ratios.length));
  if (rounds === 0) throw new TypeError('schemeSpread: a path without a round');
  const withCpu = readings.every((r) => (r.cpuRatios?.length ?? 0) >= rounds);
  const byRps = sharesOfFastest(
    readings.map((r) => r.ratios),
    rounds,
  );
  const byCpu = withCpu
    ? sharesOfFastest(
        readings.map((r) => r.cpuRatios ?? []),
        rounds,
      )
    : undefined;
  const floor = 1 - maxBehind;
  const paths = readings.map((r, i): PathShare => {
    const rps = byRps[i] as number[];
    const cpu = byCpu?.[i];
    let roundsBehind = 0;
    for (let round = 0; round < rounds; round++)
      if ((rps[round] ?? 0) < floor && (cpu === undefined || (cpu[round] ?? 0) < floor)) roundsBehind += 1;
    return {
      id: r.id,
      label: r.label,
      ofFastest: spreadOf(rps),
      ...(cpu === undefined ? {} : { cpuOfFastest: spreadOf(cpu) }),
      roundsBehind,
      rounds,
      behind: roundsBehind === rounds,
    };
  });
  const fastest = paths.reduce((a, b) => (b.ofFastest.median > a.ofFastest.median ? b : a));
  const slowest = paths.reduce((a, b) => (b.ofFastest.median < a.ofFastest.median ? b : a));
  return { maxBehind, paths, fastest: fastest.id, slowest: slowest.id, met: paths.every((p) => !p.behind) };
}

const percentBehind = (share: number): string => `${Math.round((1 - share) * 100)} %`;

/** The check's one line (console and bench.md). */
export function schemeSpreadLine(spread: SchemeSpread): string {
  const label = (id: string): string => spread.paths.find((p) => p.id === id)?.label ?? id;
  const behind = spread.paths.filter((p) => p.behind);
  const slowest = spread.paths.find((p) => p.id === spread.slowest) as PathShare;
  const who =
    behind.length === 0
      ? `furthest behind: ${slowest.label}, ${percentBehind(slowest.ofFastest.median)} by req/s (median), behind in ${slowest.roundsBehind} of ${slowest.rounds} rounds`
      : behind
          .map(
            (p) =>
              `${p.label} ${percentBehind(p.ofFastest.median)} behind by req/s${p.cpuOfFastest === undefined ? '' : `, ${percentBehind(p.cpuOfFastest.median)} by CPU`} (medians)`,
          )
          .join('; ');
  return `³ Target: no authenticated scheme nor the 401 path more than ${Math.round(spread.maxBehind * 100)} % behind the fastest of them in every round (each as × its own bare node:http ceiling; by req/s and by CPU per request) — **${spread.met ? 'met' : 'missed'}** (most often fastest: ${label(spread.fastest)}; ${who}).`;
}

/** The check's table (bench.md): each path's share of the round's fastest, and the rounds it was behind in. */
export function schemeSpreadTable(spread: SchemeSpread): string[] {
  const range = (s: RoundSpread): string =>
    s.min === s.max
      ? s.median.toFixed(2)
      : `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
  const out = [
    '| path | of the fastest, req/s | of the fastest, by CPU | rounds behind | |',
    '| --- | ---: | ---: | ---: | --- |',
  ];
  for (const p of spread.paths) {
    out.push(
      `| ${p.label} | ${range(p.ofFastest)} | ${p.cpuOfFastest === undefined ? '–' : range(p.cpuOfFastest)} | ${p.roundsBehind} / ${p.rounds} | ${p.behind ? '**behind**' : ''} |`,
    );
  }
  return out;
}
