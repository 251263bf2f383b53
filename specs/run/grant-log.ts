/**
 * The run's recent requests, as the scheduler granted them (specs/run/coordinator.ts): when each went out and
 * which counter it fell in under every key (specs/run/scopes.ts), whether or not that key is paced. From it,
 * how many requests a counter received in a recent span — what a limited answer is checked against to tell
 * which key the target counts by.
 */
import { counterOf, KEYS, type RateKey, type RequestScope } from './scopes.ts';

/** Slots are granted up to this far ahead of each other's order (a lease's horizon, and then some). */
const ORDER_SLACK_MS = 1000;

interface Entry {
  readonly at: number;
  readonly counters: Readonly<Record<RateKey, string>>;
}

export class GrantLog {
  private entries: Entry[] = [];
  private start = 0;

  constructor(
    /** How long entries are kept (ms): at least the longest span ever asked about. */
    private readonly keepMs: number,
  ) {}

  /** The counters of the scope added last: a batch of requests repeats one scope (the same object). */
  private last:
    | { readonly scope: RequestScope; readonly counters: Readonly<Record<RateKey, string>> }
    | undefined;

  add(scope: RequestScope, times: readonly number[]): void {
    let counters = this.last?.scope === scope ? this.last.counters : undefined;
    if (counters === undefined) {
      counters = Object.fromEntries(KEYS.map((k) => [k, counterOf(k, scope)])) as Record<RateKey, string>;
      this.last = { scope, counters };
    }
    for (const at of times) this.entries.push({ at, counters });
  }

  private prune(now: number): void {
    while (this.start < this.entries.length && (this.entries[this.start]?.at ?? now) < now - this.keepMs)
      this.start++;
    // Compact now and then, so the array does not grow with the run.
    if (this.start > 4096 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }

  /**
   * How many different values `by` gives the entries of `counter` (under `key`) in (now − spanMs, now]: e.g. how
   * many different routes the limited answers counted under one address came from.
   */
  distinct(
    key: RateKey,
    counter: string,
    spanMs: number,
    now: number,
    by: (counters: Readonly<Record<RateKey, string>>) => string,
  ): number {
    this.prune(now);
    const seen = new Set<string>();
    for (let i = this.entries.length - 1; i >= this.start; i--) {
      const e = this.entries[i] as Entry;
      if (e.at <= now - spanMs - ORDER_SLACK_MS) break;
      if (e.at > now || e.at <= now - spanMs || e.counters[key] !== counter) continue;
      seen.add(by(e.counters));
    }
    return seen.size;
  }

  /** Requests of `counter` (under `key`) sent in (now − spanMs, now]. */
  count(key: RateKey, counter: string, spanMs: number, now: number): number {
    return this.countWhere(key, (c) => c === counter, spanMs, now);
  }

  /**
   * The most requests of `counter` (under `key`) in any span of `spanMs` that ends between `from` and `to`:
   * where a limited request went out at `from` and its answer was known at `to`, the target counted it at some
   * moment in between, and its window ended there.
   */
  maxCount(key: RateKey, counter: string, spanMs: number, from: number, to: number): number {
    this.prune(to);
    const times: number[] = [];
    for (let i = this.entries.length - 1; i >= this.start; i--) {
      const e = this.entries[i] as Entry;
      if (e.at <= from - spanMs - ORDER_SLACK_MS) break;
      if (e.at > to || e.at <= from - spanMs || e.counters[key] !== counter) continue;
      times.push(e.at);
    }
    times.sort((a, b) => a - b);
    // A span ending at `from`, then one ending at each request between `from` and `to`.
    let most = times.filter((t) => t <= from).length;
    let first = 0;
    for (let last = 0; last < times.length; last++) {
      const end = times[last] as number;
      if (end < from) continue;
      while ((times[first] as number) <= end - spanMs) first++;
      most = Math.max(most, last - first + 1);
    }
    return most;
  }

  /** Requests sent in (now − spanMs, now] whose counter under `key` is one `matches` takes. */
  countWhere(key: RateKey, matches: (counter: string) => boolean, spanMs: number, now: number): number {
    this.prune(now);
    let n = 0;
    for (let i = this.entries.length - 1; i >= this.start; i--) {
      const e = this.entries[i] as Entry;
      // Slots are logged when granted, up to a lease's horizon ahead: the log is in time order within that.
      if (e.at <= now - spanMs - ORDER_SLACK_MS) break;
      if (e.at > now || e.at <= now - spanMs) continue;
      if (matches(e.counters[key])) n++;
    }
    return n;
  }
}
