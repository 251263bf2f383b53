/**
 * A polite run (docs/design.md "A polite client"): the requests one worker keeps in flight. The run's totals —
 * `budget.maxRequests`, `budget.maxSeconds` — and its pace are kept for all workers together by the run's
 * scheduler (specs/run/); Playwright workers are separate processes, so the in-flight cap is split evenly.
 */

export class Budget {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    /** Requests this worker may have in flight at once. */
    readonly concurrency: number,
  ) {
    if (!(concurrency >= 1)) throw new TypeError('Budget needs concurrency >= 1');
  }

  /** The profile's in-flight cap divided between `workers` processes. */
  static forWorker(budget: { concurrency?: number } | undefined, workers: number): Budget {
    return new Budget(
      Math.max(1, Math.floor((budget?.concurrency ?? DEFAULT_CONCURRENCY) / Math.max(1, workers))),
    );
  }

  /** Runs one request once fewer than `concurrency` are in flight. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) await new Promise<void>((wake) => this.waiting.push(wake));
    this.active++;
    try {
      return await send();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** Requests the whole run may send when the profile says nothing (fuzz cases included). */
export const DEFAULT_MAX_REQUESTS = 10_000;
/** Longest a run may take when the profile says nothing, rate-limit waits included. */
export const DEFAULT_MAX_SECONDS = 1800;
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 10_000;
