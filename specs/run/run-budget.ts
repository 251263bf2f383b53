/**
 * Why a check cannot go on: the run's budget (`budget.maxRequests`, `budget.maxSeconds`) or the test's own
 * time (specs/run/test-clock.ts) cannot afford its next request or the wait a limited answer asks for. The
 * check is skipped with this message, never failed: time and budgets are not evidence about the target.
 */
export class RunBudgetExhausted extends Error {
  readonly code = 'ERR_GATECHECK_RUN_BUDGET';
  constructor(
    message: string,
    /** How much longer the run would have needed, when a wait is what did not fit. */
    readonly neededMs?: number,
  ) {
    super(message);
    this.name = 'RunBudgetExhausted';
  }
}
