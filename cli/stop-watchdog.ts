/**
 * What the CLI does when Playwright does not end after Ctrl-C. Playwright stops on the first SIGINT: it asks
 * its workers to stop, runs its teardown and writes its reports, in well under a second here. But a Ctrl-C
 * that comes while the set-up project runs (the run's first phase) is missed: Playwright 1.65's runner goes on
 * into the checks' phase and does not end by itself (tests/cli/ctrl-c.test.ts: 4 tries of 4 still running
 * after 17 s with this watchdog off); and a worker that hangs on stop keeps its runner waiting up to five
 * minutes (microsoft/playwright#39753, #40637). So, once Ctrl-C has come, the CLI gives Playwright a grace
 * period, then sends a second SIGINT (Playwright's "stop at once", which interrupts its teardown), then SIGKILL.
 * Its workers, left without a parent, end on the IPC channel's disconnect (Playwright's worker process:
 * `disconnect` → exit).
 */
import type { ChildProcess } from 'node:child_process';

export interface StopWatchdogTimes {
  /** From the first Ctrl-C to the second SIGINT. */
  readonly graceMs: number;
  /** From the second SIGINT to SIGKILL. */
  readonly killMs: number;
}

/** Enough for Playwright to write every report of a stopped run (≈ 0.3 s measured here) many times over. */
export const STOP_WATCHDOG_TIMES: StopWatchdogTimes = { graceMs: 8_000, killMs: 4_000 };

/**
 * The watchdog for `child`: `arm()` at Ctrl-C (the first call counts; later ones do nothing), `disarm()` when
 * the CLI lets go of the child; it disarms itself when the child exits.
 */
export function stopWatchdog(
  child: ChildProcess,
  times: StopWatchdogTimes = STOP_WATCHDOG_TIMES,
): { arm(): void; disarm(): void } {
  let timers: NodeJS.Timeout[] | undefined;
  const disarm = () => {
    for (const timer of timers ?? []) clearTimeout(timer);
  };
  child.once('exit', disarm);
  return {
    arm() {
      if (timers !== undefined || child.exitCode !== null || child.signalCode !== null) return;
      timers = [
        setTimeout(() => child.kill('SIGINT'), times.graceMs),
        setTimeout(() => child.kill('SIGKILL'), times.graceMs + times.killMs),
      ];
      // The timers never keep this process alive on their own: the child's exit ends it.
      for (const timer of timers) timer.unref();
    },
    disarm,
  };
}
