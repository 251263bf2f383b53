/**
 * Progress of a mutation run, one line per target as its last test ends: which defect, how many are done, how
 * many rules it failed. Pure bookkeeping; harness/progress-reporter.ts feeds it Playwright's events.
 */
export class MutationProgress {
  readonly #left = new Map<string, number>();
  readonly #failing = new Map<string, Set<string>>();
  #done = 0;

  /** `tests`: the number of tests each target (project) runs. */
  constructor(tests: ReadonlyMap<string, number>) {
    for (const [target, count] of tests) if (count > 0) this.#left.set(target, count);
  }

  get total(): number {
    return this.#left.size + this.#done;
  }

  /** The opening line. */
  start(workers: number): string {
    return `mutation: ${this.total} targets (each defect and the conformant mock), ${workers} workers`;
  }

  /** Records one test's end; returns the target's line when it was the target's last test. */
  testEnded(target: string, failedRule: string | undefined): string | undefined {
    const left = this.#left.get(target);
    if (left === undefined) return undefined;
    const failing = this.#failing.get(target) ?? new Set<string>();
    if (failedRule !== undefined) failing.add(failedRule);
    this.#failing.set(target, failing);
    if (left > 1) {
      this.#left.set(target, left - 1);
      return undefined;
    }
    this.#left.delete(target);
    this.#done += 1;
    const rules = failing.size === 1 ? '1 rule failed' : `${failing.size} rules failed`;
    return `mutation: ${this.#done}/${this.total} ${target} — ${rules}, ${this.total - this.#done} left`;
  }
}
