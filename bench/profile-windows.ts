/**
 * A CPU profile (`node --cpu-prof`) cut into the time windows during which one kind of request was measured:
 * the self time of each function per answered request, by window kind. One mock process serving Bearer,
 * then Apikey, then Bearer again… in alternating windows shows what an Apikey request pays that a Bearer
 * request does not, on the same process and route (bench/mock-ab.ts; issue #72), without a profile per path.
 *
 * Window bounds are microseconds of the monotonic clock (`process.hrtime`), the clock of the profile's
 * timestamps on Linux: the parent that drove the load knows when each window began and ended.
 */

import { type CpuProfile, frameName } from './cpu-profile.ts';

export interface ProfileWindow {
  /** What was measured in it (a path: `apikey`, `401`, …); several windows may share a kind. */
  readonly kind: string;
  readonly fromUs: number;
  readonly toUs: number;
  /** Requests answered in it. */
  readonly requests: number;
}

/** The sum of all frames but idle, per request: the `busy` line of `framesPerRequest`. */
export const BUSY = '(busy: all but idle)';

/** Monotonic microseconds, as the profile's timestamps. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Per window kind: each function's self time in µs per request answered in the windows of that kind, and
 * `BUSY`, their sum. Idle samples are left out; samples outside every window (start-up, warm-ups) too.
 */
export function framesPerRequest(
  profile: CpuProfile,
  windows: readonly ProfileWindow[],
): Map<string, Map<string, number>> {
  const ordered = [...windows].sort((a, b) => a.fromUs - b.fromUs);
  const frames = new Map(profile.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const requests = new Map<string, number>();
  for (const w of ordered) requests.set(w.kind, (requests.get(w.kind) ?? 0) + w.requests);
  const out = new Map<string, Map<string, number>>();
  let at = profile.startTime;
  let next = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    while (next < ordered.length && at > (ordered[next] as ProfileWindow).toUs) next += 1;
    const window = ordered[next];
    if (window === undefined || at < window.fromUs) return;
    const frame = frames.get(id) ?? '(unknown)';
    if (frame === '(idle)') return;
    let kind = out.get(window.kind);
    if (kind === undefined) {
      kind = new Map();
      out.set(window.kind, kind);
    }
    kind.set(frame, (kind.get(frame) ?? 0) + delta);
    kind.set(BUSY, (kind.get(BUSY) ?? 0) + delta);
  });
  for (const [kind, byFrame] of out) {
    const n = requests.get(kind) ?? 0;
    for (const [frame, us] of byFrame) byFrame.set(frame, n > 0 ? us / n : 0);
  }
  return out;
}

/** The `n` frames with the most self time per request, `BUSY` first. */
export function topFrames(byFrame: ReadonlyMap<string, number>, n: number): [string, number][] {
  return [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, n + 1);
}

/** What `kind` pays per request beyond `base`, frame by frame, the largest differences first. */
export function framesBeyond(
  kind: ReadonlyMap<string, number>,
  base: ReadonlyMap<string, number>,
  n: number,
): [string, number][] {
  const names = new Set([...kind.keys(), ...base.keys()]);
  return [...names]
    .map((name): [string, number] => [name, (kind.get(name) ?? 0) - (base.get(name) ?? 0)])
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, n);
}
