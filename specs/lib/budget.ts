/**
 * A polite run (docs/design.md: "a bounded, polite run"): every request the
 * conformance checks send goes through one Budget per worker. Playwright workers are separate processes,
 * so the profile's totals are split evenly between them.
 */

export class BudgetExhausted extends Error {
  readonly code = 'ERR_GATECHECK_BUDGET';
  constructor(readonly limit: number) {
    super(`request budget exhausted: this worker's share of budget.maxRequests is ${limit}`);
    this.name = 'BudgetExhausted';
  }
}

export class Budget {
  private sent = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    /** Requests this worker may send in the whole run. */
    readonly maxRequests: number,
    /** Requests this worker may have in flight at once. */
    readonly concurrency: number,
  ) {
    if (!(maxRequests >= 1) || !(concurrency >= 1))
      throw new TypeError('Budget needs maxRequests and concurrency >= 1');
  }

  /** The profile's budget divided between `workers` processes. */
  static forWorker(
    budget: { maxRequests?: number; concurrency?: number } | undefined,
    workers: number,
  ): Budget {
    const n = Math.max(1, workers);
    return new Budget(
      Math.max(1, Math.floor((budget?.maxRequests ?? DEFAULT_MAX_REQUESTS) / n)),
      Math.max(1, Math.floor((budget?.concurrency ?? DEFAULT_CONCURRENCY) / n)),
    );
  }

  get used(): number {
    return this.sent;
  }

  get remaining(): number {
    return this.maxRequests - this.sent;
  }

  /** Runs one request inside the budget; throws BudgetExhausted (before sending) when none is left. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    if (this.sent >= this.maxRequests) throw new BudgetExhausted(this.maxRequests);
    this.sent++;
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

export const DEFAULT_MAX_REQUESTS = 2000;
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 10_000;
