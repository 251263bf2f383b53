/**
 * How many workers a paced run gets (#38). With a declared rate limit most of a run's time is waiting for a
 * counter's next slot, and a check that waits holds its Playwright worker: on the configuration's two workers,
 * checks waiting on one credential's window (40–60 requests with one credential take two or three windows)
 * kept the requests of the deciding counter from going out. More workers overlap the waits. Measured on this
 * machine (2 cores, quiet; `npm run bench -- --only polite --polite-workers <n>`): per credential 20 per 10 s,
 * exact profile, 118.2 s on 2 workers, 107.7 s on 4, 98.4 s on 6 (least 90.5 s); minimal profile 386.4 s → 306.5 s
 * on 6; DRF-like 192.6 s on 2 (docs/performance.md). A waiting worker costs no CPU; starting one costs ≈ 1 CPU-s.
 * Twelve, measured the same way once a blank Authorization field counted with the requests without a credential
 * (#38, fifth pass; 6 → 12 workers): per credential 20 per 10 s exact 91.1 → 82.5 s, minimal 147.7 → 139.4 s;
 * DRF-like exact 113.3 → 96.9 s, minimal 161.9 → 140.8 s; per credential 60 per 10 s exact 31.1 → 32.6 s (the
 * six more starts), minimal 67.4 → 62.8 s.
 */
import type { RunEstimate } from '../specs/setup/estimate.ts';

/** The workers of a run a declared limit paces. */
export const PACED_WORKERS = 12;

/** Whether Playwright's own arguments already choose the workers (`--workers N`, `--workers=N`, `-j N`, `-jN`). */
function choosesWorkers(passthrough: readonly string[]): boolean {
  return passthrough.some((a) => a === '--workers' || a.startsWith('--workers=') || /^-j(\d+|=.*)?$/.test(a));
}

/**
 * `--workers 12` for a run a declared limit paces (an estimate exists), unless the user chose the workers; none
 * otherwise (the configuration's two).
 */
export function pacedWorkerArgs(estimate: RunEstimate | undefined, passthrough: readonly string[]): string[] {
  if (estimate === undefined || choosesWorkers(passthrough)) return [];
  return ['--workers', String(PACED_WORKERS)];
}
