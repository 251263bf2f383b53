/**
 * The schemes side by side (issue #72): each authenticated scheme and the 401 path as a fraction of bare
 * node:http answering the same bytes in the same round (the case's own ceiling, bench/ceiling-child.ts), and
 * how far each is behind the fastest of them. A cost that only one path pays — as Apikey was reported to, 40 %
 * behind Bearer on the same route — shows here as that path falling behind the others, whatever the machine's
 * absolute speed.
 *
 * Missed when a path is more than `MAX_BEHIND` behind the fastest by requests/s over its ceiling AND by its
 * ceiling's CPU per request over its own: a cost the path really pays shows in both, while either reading
 * alone moves by ±30 % on a shared machine (a neighbour taking the core during one case or its ceiling).
 * Without a CPU reading, requests/s alone decides.
 */

/** Median and spread over rounds (bench/mock-bench.ts's `Spread`, repeated here so this file imports nothing). */
export interface RoundSpread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** What the check reads of one path: its fractions of bare node:http, medians over rounds. */
export interface PathReading {
  readonly id: string;
  readonly label: string;
  /** Requests/s over its ceiling's, same round. */
  readonly ratio: RoundSpread;
  /** Its ceiling's CPU per request over its own, same round. */
  readonly cpuRatio?: RoundSpread | undefined;
}

export interface PathShare extends PathReading {
  /** `ratio.median` over the fastest path's. */
  readonly ofFastest: number;
  /** `cpuRatio.median` over the fastest path's by that reading. */
  readonly cpuOfFastest?: number;
  /** More than `maxBehind` behind the fastest (by both readings when there are both). */
  readonly behind: boolean;
}

export interface SchemeSpread {
  readonly maxBehind: number;
  readonly paths: readonly PathShare[];
  /** The fastest by requests/s over its ceiling, and by CPU. */
  readonly fastest: string;
  readonly fastestByCpu?: string;
  /** The path furthest behind by requests/s. */
  readonly slowest: string;
  readonly met: boolean;
}

/** The cases compared: every authenticated scheme of the bench's "auth" mock, and the 401 path. */
export const SPREAD_CASES: readonly string[] = ['bearer-rs256', 'bearer-es256', 'basic', 'apikey', '401'];

/** Issue #72: a path more than 15 % behind the fastest is a cost that path alone pays. */
export const MAX_BEHIND = 0.15;

export function schemeSpread(readings: readonly PathReading[], maxBehind = MAX_BEHIND): SchemeSpread {
  if (readings.length === 0) throw new TypeError('schemeSpread: no paths to compare');
  const best = (pick: (r: PathReading) => number | undefined): PathReading | undefined =>
    readings.reduce<PathReading | undefined>((a, b) => {
      const value = pick(b);
      return value !== undefined && (a === undefined || value > (pick(a) ?? 0)) ? b : a;
    }, undefined);
  const fastest = best((r) => r.ratio.median) as PathReading;
  const everyCpu = readings.every((r) => r.cpuRatio !== undefined);
  const fastestByCpu = everyCpu ? best((r) => r.cpuRatio?.median) : undefined;
  const floor = 1 - maxBehind;
  const paths = readings.map((r): PathShare => {
    const ofFastest = fastest.ratio.median > 0 ? r.ratio.median / fastest.ratio.median : 0;
    const topCpu = fastestByCpu?.cpuRatio?.median;
    const cpuOfFastest =
      topCpu === undefined || r.cpuRatio === undefined || topCpu <= 0
        ? undefined
        : r.cpuRatio.median / topCpu;
    const behind = ofFastest < floor && (cpuOfFastest === undefined || cpuOfFastest < floor);
    return { ...r, ofFastest, ...(cpuOfFastest === undefined ? {} : { cpuOfFastest }), behind };
  });
  const slowest = paths.reduce((a, b) => (b.ofFastest < a.ofFastest ? b : a));
  return {
    maxBehind,
    paths,
    fastest: fastest.id,
    ...(fastestByCpu === undefined ? {} : { fastestByCpu: fastestByCpu.id }),
    slowest: slowest.id,
    met: paths.every((p) => !p.behind),
  };
}

/** The check's one line (console and bench.md). */
export function schemeSpreadLine(spread: SchemeSpread): string {
  const label = (id: string): string => spread.paths.find((p) => p.id === id)?.label ?? id;
  const behind = spread.paths.filter((p) => p.behind);
  const pct = (x: number): string => `${Math.round((1 - x) * 100)} %`;
  const who =
    behind.length === 0
      ? `furthest behind: ${label(spread.slowest)}, ${pct(spread.paths.find((p) => p.id === spread.slowest)?.ofFastest ?? 1)} by req/s`
      : behind
          .map(
            (p) =>
              `${p.label} ${pct(p.ofFastest)} behind by req/s${p.cpuOfFastest === undefined ? '' : `, ${pct(p.cpuOfFastest)} by CPU`}`,
          )
          .join('; ');
  return `³ Target: no authenticated scheme nor the 401 path more than ${Math.round(spread.maxBehind * 100)} % behind the fastest of them (each as × its own bare node:http ceiling, same round; by req/s and by CPU per request) — **${spread.met ? 'met' : 'missed'}** (fastest: ${label(spread.fastest)}${spread.fastestByCpu !== undefined && spread.fastestByCpu !== spread.fastest ? `, by CPU ${label(spread.fastestByCpu)}` : ''}; ${who}).`;
}

/** The check's table (bench.md): each path as × bare node:http and as a share of the fastest. */
export function schemeSpreadTable(spread: SchemeSpread): string[] {
  const range = (s: RoundSpread): string =>
    s.min === s.max
      ? s.median.toFixed(2)
      : `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
  const out = [
    '| path | × bare node:http, req/s | of the fastest | × bare node:http, by CPU | of the fastest by CPU | |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const p of spread.paths) {
    out.push(
      `| ${p.label} | ${range(p.ratio)} | ${p.ofFastest.toFixed(2)} | ${p.cpuRatio === undefined ? '–' : range(p.cpuRatio)} | ${p.cpuOfFastest === undefined ? '–' : p.cpuOfFastest.toFixed(2)} | ${p.behind ? '**behind**' : ''} |`,
    );
  }
  return out;
}
