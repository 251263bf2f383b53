/**
 * A worker's side of the run's scheduler (specs/run/coordinator.ts): every request goes out in a slot the
 * coordinator handed out, and a limited answer is never returned to a check — it is reported (every worker
 * pauses), waited out, and the same request is sent again; the check is judged on the first answer that is
 * not rate limiting. When the run's budget cannot afford the wait, RunBudgetExhausted says how long it
 * would have needed, and the check is skipped with that reason.
 */
import { randomUUID } from 'node:crypto';
import { ENV } from '../../shared/env.ts';
import { DEFAULT_MAX_REQUESTS, DEFAULT_MAX_SECONDS } from '../lib/budget.ts';
import { type RatePolicy, ratePolicyOf } from '../profile/rate-policy.ts';
import type { Profile } from '../profile/types.ts';
import { type Bucketer, bucketer } from './buckets.ts';
import { type DeclaredLimit, RunCoordinator, type TargetPolicy } from './coordinator.ts';
import {
  type AnswerHead,
  countedByLimiter,
  DURING_BAN,
  declaredRateHint,
  type LimitSignal,
  limitedAnswer,
  statedLimit,
} from './limited-answer.ts';
import { httpPort, inProcessPort, SCHEDULER_ENV, type SchedulerPort } from './port.ts';
import { RunBudgetExhausted } from './run-budget.ts';
import { type ApartMark, apartMarkOf, decodeScope } from './scopes.ts';
import { currentTestClock } from './test-clock.ts';

export { RunBudgetExhausted } from './run-budget.ts';

/** The limits a profile declares, as the coordinator takes them — read from its resolved rate policy. */
export function policyOf(profile: Profile, rate: RatePolicy = ratePolicyOf(profile)): TargetPolicy {
  const budget = profile.budget;
  const limits = rate.entries.map(
    (e): DeclaredLimit => ({
      limit: e.limit,
      windowSeconds: e.windowSeconds,
      ...(e.key === undefined ? {} : { key: e.key }),
      ...(e.burst === undefined ? {} : { burst: e.burst }),
      ...(e.appliesTo === 'endpoint' ? { onlyEndpoint: true } : {}),
      label: e.label,
    }),
  );
  return {
    ...(limits.length === 1 ? { declared: limits[0] } : limits.length > 1 ? { limits } : {}),
    ...(rate.ban === undefined
      ? {}
      : { ban: rate.ban.seconds === undefined ? {} : { seconds: rate.ban.seconds } }),
    ...(rate.limiterStatus === 503 ? { limiterStatus: 503 as const } : {}),
    maxRequests: budget?.maxRequests ?? DEFAULT_MAX_REQUESTS,
    maxSeconds: budget?.maxSeconds ?? DEFAULT_MAX_SECONDS,
  };
}

export interface SendOptions {
  /**
   * The request provokes the limit on purpose (a rate-limit rule inside `exclusive`): limited answers are
   * returned, not waited out.
   */
  readonly provoking?: boolean;
  /**
   * The statuses the check expects. A 403 among them is judged, not taken for a ban, unless it carries
   * Retry-After (specs/run/limited-answer.ts).
   */
  readonly expect?: readonly number[];
  /**
   * Sends a control request — GET `path` (relative to the base URL) with `authorization`, or none — outside
   * the scheduler's slots, and returns its answer: what tells a ban's 403 from a refusal (DURING_BAN).
   * Without it a 403 during a declared ban is taken for the ban, as before.
   */
  readonly control?: (path: string, authorization: string | undefined) => Promise<AnswerHead | undefined>;
  /** The request's one Authorization value, if it carries one (the control is sent with it). */
  readonly authorization?: string;
}

/** The statuses limitedAnswer may take for a limit: 429, 503 and the 403 of a ban. */
const MAYBE_LIMITED = new Set([429, 503, 403]);

/** Statuses that say a control request was refused too: the ban (or the limit) covers it as well. */
const REFUSED = new Set([403, 429, 503]);

/** Longest a sent request waits to be reported to the coordinator. */
const REPORT_MS = 200;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * A wait the scheduler imposes (a slot further on, a pause, another rule's exclusive use): the running test's
 * clock counts it as waiting for the target's limit, not as the test's own time (specs/run/test-clock.ts).
 */
function waitFor(ms: number): Promise<void> {
  if (ms > 0) currentTestClock()?.wait(ms);
  return sleep(ms);
}

export class Scheduler {
  /** This worker's id as the coordinator knows it (exclusive use is held per worker). */
  private readonly holder = randomUUID();
  private readonly slots = new Map<string, number[]>();
  private readonly leasing = new Map<string, Promise<void>>();
  /** Requests waiting for a slot, per queue: what a lease asks for. */
  private readonly waiting = new Map<string, number>();
  /** Queues whose last lease was unpaced: their next lease is asked for before their slots run out. */
  private readonly unpaced = new Set<string>();
  /** Why a lease asked for ahead failed (e.g. the budget is spent): the next request without a slot gets it. */
  private readonly failedAhead = new Map<string, unknown>();
  /**
   * Counts the times this worker's slots were dropped (a limited answer, exclusive use): a lease asked for
   * before the latest drop lands with slots granted before the pause, and they are not used.
   */
  private generation = 0;
  private lastLimitedAt = Number.NEGATIVE_INFINITY;
  /**
   * What this worker has told the coordinator the target counts of the requests counted apart: their mark and
   * the limit the answer stated ('undefined' for none).
   */
  private readonly toldCounted = new Set<string>();
  private readonly ready: Promise<void>;
  /** `ready` has resolved: a request need not wait a turn of the event loop for it. */
  private registered = false;
  /** Requests sent and not yet reported to the coordinator (`[bucket, epoch ms]`). */
  private unreported: [string, number][] = [];
  private reporting: ReturnType<typeof setTimeout> | undefined;
  readonly bucketOf: Bucketer;

  constructor(
    private readonly port: SchedulerPort,
    /** The target's base URL: the coordinator keeps one state per target. */
    readonly target: string,
    readonly policy: TargetPolicy,
    bucketOf: Bucketer,
    /** Most slots asked for at once (the worker's concurrency). */
    private readonly batch: number,
    /** The paths of control requests (RatePolicy.controls). */
    private readonly controls: RatePolicy['controls'] = {},
  ) {
    this.bucketOf = bucketOf;
    this.ready = port.register(target, policy).then(() => {
      this.registered = true;
    });
  }

  /**
   * Sends with `send` in a slot of `bucket` and returns the first answer that is not rate limiting (or, when
   * `provoking`, the first answer). `head` reads an answer's status and headers (undefined: no answer).
   * `send` learns which attempt it is (0 first, then one more after each limited answer waited out): a
   * re-send may need fresh credentials, the old ones having expired during the wait.
   */
  async run<T>(
    bucket: string,
    send: (attempt: number) => Promise<T>,
    head: (answer: T) => AnswerHead | undefined,
    options: SendOptions = {},
  ): Promise<T> {
    if (!this.registered) await this.ready;
    const provoking = options.provoking === true;
    for (let attempt = 0; ; attempt++) {
      // The test's own time: a target slower than the test's allowance stops it here, skipped (never failed).
      const clock = currentTestClock();
      if (clock?.expired()) throw clock.outOfTime();
      if (!this.slotNow(bucket, provoking)) await this.slot(bucket, provoking);
      clock?.sent();
      const sentAt = this.record(bucket);
      const answer = await send(attempt);
      if (provoking) return answer;
      const h = head(answer);
      const apart = apartMarkOf(bucket);
      if (h !== undefined && apart !== undefined && countedByLimiter(h.headers))
        this.noteCounted(bucket, apart, statedLimit(h.headers));
      // Only 429, 503 and 403 can be limited answers (limitedAnswer): any other is returned without more work.
      if (h === undefined || !MAYBE_LIMITED.has(h.status)) return answer;
      const signal = limitedAnswer(h, this.banContext(), Date.now(), options.expect);
      if (signal === undefined) return answer;
      if (signal.reason === DURING_BAN && !(await this.banConfirmed(bucket, options))) return answer;
      await this.waitOut(signal, bucket, sentAt, declaredRateHint(h.headers), statedLimit(h.headers));
    }
  }

  /**
   * Whether a 403 during a declared ban is the ban's: a request that must be served now — the same identity on
   * the protected path (a declared identity's credential), or the public path without credentials (any other
   * request) — is refused too. Served (or unanswered): the 403 is the target's answer to this request, judged
   * like any other (a role refused on an admin path).
   */
  private async banConfirmed(bucket: string, options: SendOptions): Promise<boolean> {
    const { control, authorization } = options;
    if (control === undefined) return true;
    const { anonymous, identity } = this.controls;
    const declared = authorization !== undefined && decodeScope(bucket).identity !== '';
    const path = declared && identity !== undefined ? identity : anonymous;
    if (path === undefined) return true;
    const answer = await control(path, path === anonymous ? undefined : authorization).catch(() => undefined);
    return answer !== undefined && REFUSED.has(answer.status);
  }

  /**
   * An answer stated the requests left, so the target's limiter counted its request: for one the run took for
   * an answer before the limit (scopes.ts `unrouted`, `unidentified`), the coordinator learns they count — of
   * the limit the answer states, where it states one (once per worker, kind and limit).
   */
  private noteCounted(bucket: string, apart: ApartMark, limit: number | undefined): void {
    const told = `${apart} ${limit}`;
    if (this.toldCounted.has(told)) return;
    this.toldCounted.add(told);
    void this.port.counted(this.target, bucket, limit).catch(() => undefined);
  }

  /** Notes a request going out, and returns when; reported in a batch within REPORT_MS, or with the next limited answer. */
  private record(bucket: string): number {
    const at = Date.now();
    this.unreported.push([bucket, at]);
    this.reporting ??= setTimeout(() => {
      this.reporting = undefined;
      void this.flush().catch(() => undefined);
    }, REPORT_MS);
    this.reporting.unref?.();
    return at;
  }

  /** Reports the requests sent so far (the key is learned from them, the report counts them). */
  async flush(): Promise<void> {
    if (this.unreported.length === 0) return;
    const entries = this.unreported;
    this.unreported = [];
    await this.port.sent(this.target, entries);
  }

  private banContext() {
    const ban = this.policy.ban;
    const banMs = (ban?.seconds ?? 60) * 1000;
    return {
      banDeclared: ban !== undefined,
      ...(ban?.seconds === undefined ? {} : { banSeconds: ban.seconds }),
      limitedRecently: Date.now() - this.lastLimitedAt < banMs,
      ...(this.policy.limiterStatus === undefined ? {} : { limiterStatus: this.policy.limiterStatus }),
    };
  }

  private async waitOut(
    signal: LimitSignal,
    bucket: string,
    sentAt: number,
    declaredRate: number | undefined,
    stated: number | undefined,
  ): Promise<void> {
    this.lastLimitedAt = Date.now();
    this.dropSlots();
    // The coordinator explains the answer from the requests sent: this worker's latest ones first.
    await this.flush();
    const { resumeAt, affordable } = await this.port.limited(
      this.target,
      signal,
      bucket,
      declaredRate,
      stated,
      sentAt,
    );
    const needMs = resumeAt - Date.now();
    if (!affordable) {
      const left = Math.max(0, await this.port.remainingMs(this.target));
      throw new RunBudgetExhausted(
        `the target is rate limiting the suite (${signal.reason}) and asks for ${Math.ceil(needMs / 1000)} s; ` +
          `budget.maxSeconds leaves ${Math.floor(left / 1000)} s (the rule would need ${Math.ceil((needMs - left) / 1000)} s more)`,
        needMs - left,
      );
    }
    await waitFor(needMs);
  }

  /** Waits for a slot of `bucket` (leasing more from the coordinator when this worker has none left). */
  private async slot(bucket: string, provoking: boolean): Promise<void> {
    // Provoking slots are neither paused nor paced: they are kept apart from the paced ones.
    const queueKey = provoking ? `${bucket}\u0000provoking` : bucket;
    this.waiting.set(queueKey, (this.waiting.get(queueKey) ?? 0) + 1);
    try {
      await this.nextSlot(bucket, queueKey, provoking);
    } finally {
      this.waiting.set(queueKey, (this.waiting.get(queueKey) ?? 1) - 1);
    }
  }

  /**
   * Takes a slot of `bucket` that is due now without waiting a turn of the event loop (most requests of an
   * unpaced queue), as nextSlot would; false when there is none, and the request waits in `slot`.
   */
  private slotNow(bucket: string, provoking: boolean): boolean {
    const queueKey = provoking ? `${bucket}\u0000provoking` : bucket;
    const queue = this.slots.get(queueKey);
    const at = queue?.[0];
    if (queue === undefined || at === undefined || at > Date.now()) return false;
    queue.shift();
    if (!provoking && queue.length < this.batch && this.unpaced.has(queueKey)) {
      // Counted as waiting while the next lease is asked for, as in nextSlot.
      this.waiting.set(queueKey, (this.waiting.get(queueKey) ?? 0) + 1);
      this.leaseAhead(bucket, queueKey);
      this.waiting.set(queueKey, (this.waiting.get(queueKey) ?? 1) - 1);
    }
    return true;
  }

  private dropSlots(): void {
    this.slots.clear();
    this.generation++;
  }

  private async nextSlot(bucket: string, queueKey: string, provoking: boolean): Promise<void> {
    for (;;) {
      const queue = this.slots.get(queueKey);
      const at = queue?.shift();
      if (at !== undefined) {
        // Unpaced: the next lease is asked for while the slots of this one last, so no request waits a round
        // trip to the coordinator for it. Paced slots are asked for as needed (one reserved and not used is
        // pace lost to every other worker).
        if (!provoking && (queue?.length ?? 0) < this.batch && this.unpaced.has(queueKey))
          this.leaseAhead(bucket, queueKey);
        const wait = at - Date.now();
        if (wait > 0) await waitFor(wait);
        return;
      }
      const failed = this.failedAhead.get(queueKey);
      if (failed !== undefined) {
        this.failedAhead.delete(queueKey);
        throw failed;
      }
      const pending = this.leasing.get(queueKey);
      if (pending) {
        await pending;
        continue;
      }
      const lease = this.lease(bucket, queueKey, provoking).finally(() => this.leasing.delete(queueKey));
      this.leasing.set(queueKey, lease);
      await lease;
    }
  }

  /** Asks for the next lease of an unpaced queue in the background; its failure waits for a request to need it. */
  private leaseAhead(bucket: string, queueKey: string): void {
    if (this.leasing.has(queueKey) || this.failedAhead.has(queueKey)) return;
    const lease = this.lease(bucket, queueKey, false)
      .catch((error: unknown) => {
        this.failedAhead.set(queueKey, error);
      })
      .finally(() => this.leasing.delete(queueKey));
    this.leasing.set(queueKey, lease);
  }

  private async lease(bucket: string, queueKey: string, provoking: boolean): Promise<void> {
    const generation = this.generation;
    for (;;) {
      const want = Math.min(this.batch, Math.max(1, this.waiting.get(queueKey) ?? 1));
      const answer = await this.port.lease(this.target, bucket, want, this.holder, provoking);
      if ('exhausted' in answer) throw new RunBudgetExhausted(answer.exhausted);
      if ('retryAt' in answer) {
        await waitFor(answer.retryAt - Date.now());
        continue;
      }
      this.lastLimitedAt = Math.max(this.lastLimitedAt, answer.lastLimitedAt);
      // Granted before this worker's slots were dropped (a pause began meanwhile): not used; ask again.
      if (generation !== this.generation) return;
      if (answer.unpaced && !provoking) this.unpaced.add(queueKey);
      else this.unpaced.delete(queueKey);
      const queue = this.slots.get(queueKey) ?? [];
      queue.push(...answer.at);
      this.slots.set(queueKey, queue);
      return;
    }
  }

  /**
   * Runs `provoke` with the target to itself when a counter in force is shared by the whole run (per address
   * or per endpoint: RunCoordinator.exclusive), then keeps the run paused for the cooldown `provoke` returns
   * (the window its burst used up, or a ban). Under keys per identity or credential alone it needs no
   * exclusive use: the burst's throw-away identity has a counter of its own.
   */
  async exclusive<T>(provoke: () => Promise<{ result: T; cooldownMs: number }>): Promise<T> {
    await this.ready;
    for (;;) {
      const answer = await this.port.exclusive(this.target, this.holder);
      // The keys in force give the burst's throw-away identity a counter of its own: no need.
      if ('notNeeded' in answer) return (await provoke()).result;
      if ('retryAt' in answer) {
        await waitFor(answer.retryAt - Date.now());
        continue;
      }
      await waitFor(answer.startAt - Date.now());
      break;
    }
    this.dropSlots();
    let cooldownMs = 0;
    try {
      const out = await provoke();
      cooldownMs = out.cooldownMs;
      return out.result;
    } finally {
      await this.port.release(this.target, this.holder, cooldownMs);
    }
  }

  /** The pace a request of `bucket` goes at now (requests/s), undefined when none paces it. */
  async paceFor(bucket: string): Promise<number | undefined> {
    await this.ready;
    return (await this.port.paceFor(this.target, bucket)) ?? undefined;
  }

  /** When a fuzz rule starting now must stop sending new cases (RunCoordinator.fuzzShare). */
  async fuzzShare(totalRules: number, parallel: number): Promise<number> {
    await this.ready;
    return this.port.fuzzShare(this.target, totalRules, parallel);
  }

  /** Milliseconds left before the run's deadline. */
  async remainingMs(): Promise<number> {
    await this.ready;
    return this.port.remainingMs(this.target);
  }
}

const perProcess = new Map<string, Scheduler>();

/** Reports every scheduler's unreported requests (a test's end, a worker's): the run's figures are complete. */
export async function flushSchedulers(): Promise<void> {
  await Promise.all([...perProcess.values()].map((s) => s.flush().catch(() => undefined)));
}
let sharedPort: SchedulerPort | undefined;

/**
 * This process's scheduler for `target`: one per target, shared by the conformance checks' client and the
 * fuzz clients. It talks to the runner's coordinator when global setup started one (SCHEDULER_ENV), else to
 * a coordinator of this process's own (a run without the suite's global setup, or the project's tests).
 */
export function schedulerFor(
  profile: Profile,
  target: string,
  batch: number,
  env: NodeJS.ProcessEnv = process.env,
): Scheduler {
  const key = target.replace(/\/+$/, '');
  let scheduler = perProcess.get(key);
  if (scheduler === undefined) {
    const address = env[SCHEDULER_ENV];
    sharedPort ??= address
      ? httpPort(address)
      : inProcessPort(new RunCoordinator(Date.now, { learn: env[ENV.schedulerLearning] !== 'off' }));
    const rate = ratePolicyOf(profile);
    scheduler = new Scheduler(
      sharedPort,
      key,
      policyOf(profile, rate),
      bucketer(profile, key, rate),
      Math.max(1, batch),
      rate.controls,
    );
    perProcess.set(key, scheduler);
  }
  return scheduler;
}
