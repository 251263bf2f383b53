/**
 * Runs one fuzz rule as a fast-check property against a target and judges every answer.
 *
 * Concurrency (docs/fuzzing.md "Keeping requests in flight"): fast-check runs the cases of an async
 * property one after another, so each case here is a *batch* — an array of 1 to 32 requests generated
 * from the rule's arbitrary — sent through a pool that keeps `concurrency` requests in flight. The batch is
 * an ordinary fc.array value, so the seed, the path and shrinking work as for any property: on a failure,
 * fast-check first drops the batch's other requests, then shrinks the one left with its own shrinker.
 * Batch lengths do not depend on the concurrency, so a seed gives the same cases on every machine.
 */
import fc from 'fast-check';
import { RunBudgetExhausted } from '../../run/scheduler.ts';
import type { WireRequest } from '../clients/types.ts';
import type { FuzzRequest } from '../request.ts';
import { classOf, type Failed, sweepClasses } from './classes.ts';
import { describeFailure, withClasses } from './failure.ts';
import { mapConcurrent } from './pool.ts';
import { noteOutcome, rateLimitReason } from './rate-limit.ts';
import { ruleSeed } from './settings.ts';
import type { Exchange, FuzzPropertyOptions, FuzzResult, FuzzStats } from './types.ts';
import type { Verdict } from './verdict.ts';
import { sendWhole, WHOLE_PATH, wholeClasses, wholeIndex } from './whole.ts';

/** Longest batch; fast-check draws lengths 1…BATCH_MAX (mean about 15 with `size: 'max'`). */
export const BATCH_MAX = 32;
/** A low estimate of the mean batch length (fast-check's bias draws short ones now and then). */
const MIN_MEAN_BATCH = 6;
/** Requests shrinking may spend before it settles for the smallest failure found so far. */
export const DEFAULT_MAX_SHRINK_CASES = 1500;

/**
 * The batches, generated only while the property will read them. numRuns is an upper bound (runFuzzProperty):
 * after the rule's share is sent, fast-check goes on to numRuns and each later run returns true without reading
 * its batch — generating it (a JWT mutation signs a token) was work for nothing. fast-check generates each run
 * from its own jump of the seed's generator, so the runs that are sent get the same values; shrinking and
 * replays (path) go through the array arbitrary as before.
 */
class WhileUnsent<T> extends fc.Arbitrary<T[]> {
  constructor(
    private readonly batches: fc.Arbitrary<T[]>,
    private readonly spent: () => boolean,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T[]> {
    return this.spent() ? new fc.Value<T[]>([], undefined) : this.batches.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T[] {
    return this.batches.canShrinkWithoutContext(value);
  }

  shrink(value: T[], context: unknown): fc.Stream<fc.Value<T[]>> {
    return this.batches.shrink(value, context);
  }
}

function toWire(request: FuzzRequest, options: FuzzPropertyOptions): WireRequest {
  const role = request.endpoint ?? options.endpoint;
  const path = options.target.paths[role];
  if (path === undefined) throw new TypeError(`the profile names no ${role} endpoint`);
  const query = request.query === undefined ? '' : `${path.includes('?') ? '&' : '?'}${request.query}`;
  return {
    method: options.target.methods?.[role] ?? 'GET',
    url: `${options.target.baseUrl}${path}${query}`,
    authorization: request.authorization,
  };
}

export async function runFuzzProperty(options: FuzzPropertyOptions): Promise<FuzzResult> {
  const seed = ruleSeed(options.seed, options.rule.id);
  const stats: FuzzStats = {
    rule: options.rule.id,
    runSeed: options.seed,
    ruleSeed: seed,
    cases: 0,
    shrinkCases: 0,
    // An upper bound: runs after the share is spent return at once (see the property).
    numRuns: options.cases <= 0 ? 0 : Math.ceil(options.cases / MIN_MEAN_BATCH) + 1,
    unjudged: {},
    statuses: {},
    clients: {},
    durationMs: 0,
  };
  const maxShrink = options.maxShrinkCases ?? DEFAULT_MAX_SHRINK_CASES;
  let shrinking = false;
  let last: { exchange: Exchange; verdict: Extract<Verdict, { result: 'fail' }> } | undefined;

  const exchange = async (request: FuzzRequest): Promise<Exchange> => {
    const wire = toWire(request, options);
    // The chosen client when it can put these exact octets on the wire, else the raw socket.
    const client = options.target.client.canSend(wire) ? options.target.client : options.target.raw;
    return { request, wire, client: client.name, outcome: await client.send(wire) };
  };

  const judge = (ex: Exchange): Verdict => {
    // No answer within timeoutMs is a clock, not an answer: no verdict either way.
    if (ex.outcome.kind === 'dropped' && ex.outcome.timedOut)
      return { result: 'unjudged', reason: 'no answer within budget.timeoutMs' };
    const verdict = options.judge(ex.request, ex.outcome);
    if (verdict.result !== 'fail') return verdict;
    // Rate limiting says nothing about this rule: counted as unjudged instead of failing it.
    const reason = rateLimitReason(ex.outcome);
    return reason === undefined ? verdict : { result: 'unjudged', reason };
  };

  // Once the share is sent (or the budget stopped the rule), the runs left up to numRuns return at once: they
  // get an empty batch instead of a generated one (ungenerated, a JWT mutation signs nothing).
  const spent = (): boolean =>
    !shrinking && (stats.stopped !== undefined || options.cases - stats.cases <= 0);
  const property = fc.asyncProperty(
    new WhileUnsent(fc.array(options.arbitrary, { minLength: 1, maxLength: BATCH_MAX, size: 'max' }), spent),
    async (generated) => {
      let batch = generated;
      // The run's budget ran out: this rule is judged on the cases it sent (or, shrinking, the smallest yet).
      if (stats.stopped !== undefined) return true;
      if (shrinking) {
        // Past the shrink budget every candidate "passes": fast-check keeps the smallest failure so far.
        if (stats.shrinkCases >= maxShrink) return true;
        stats.shrinkCases += batch.length;
      } else {
        // The rule's share of cases is exact: the last batch is cut, and later runs send nothing. Which
        // cases are sent depends on the seed alone, so a replay sends the same ones.
        const room = options.cases - stats.cases;
        if (room <= 0) return true;
        if (options.deadline !== undefined && Date.now() >= options.deadline) {
          stats.stopped = `its share of budget.maxSeconds ran out after ${stats.cases} cases`;
          return true;
        }
        if (batch.length > room) batch = batch.slice(0, room);
        stats.cases += batch.length;
      }
      // The run's budget or the test's own time may stop the batch part way: what was answered is judged, what
      // was not sent is not counted.
      let stoppedBy: RunBudgetExhausted | undefined;
      const answered = await mapConcurrent(batch, options.concurrency, async (request) => {
        if (stoppedBy !== undefined) return undefined;
        try {
          return await exchange(request);
        } catch (e) {
          if (!(e instanceof RunBudgetExhausted)) throw e;
          stoppedBy ??= e;
          return undefined;
        }
      });
      const exchanges = answered.filter((ex): ex is Exchange => ex !== undefined);
      if (stoppedBy !== undefined) {
        const unsent = batch.length - exchanges.length;
        if (shrinking) stats.shrinkCases -= unsent;
        else stats.cases -= unsent;
        stats.stopped = stoppedBy.message;
      }
      let failure: typeof last;
      for (const ex of exchanges) {
        noteOutcome(ex.outcome);
        if (!shrinking) {
          const key = ex.outcome.kind === 'response' ? String(ex.outcome.status) : 'dropped';
          stats.statuses[key] = (stats.statuses[key] ?? 0) + 1;
          stats.clients[ex.client] = (stats.clients[ex.client] ?? 0) + 1;
        }
      }
      for (const ex of exchanges) {
        const verdict = judge(ex);
        if (verdict.result === 'unjudged' && !shrinking) {
          stats.unjudged[verdict.reason] = (stats.unjudged[verdict.reason] ?? 0) + 1;
        }
        if (verdict.result === 'fail' && failure === undefined) failure = { exchange: ex, verdict };
      }
      // Stopped, nothing failed: the rule is judged on the cases answered (later runs return at once).
      if (failure === undefined) return true;
      last = failure;
      shrinking = true;
      return false;
    },
  );

  // A small attack space is sent whole before anything is sampled (whole.ts); a replay of one of its cases
  // sends that case alone.
  const whole = options.whole ?? [];
  const replayed = wholeIndex(options.path);
  if (whole.length > 0 && options.cases > 0 && (options.path === undefined || replayed !== undefined)) {
    const started = performance.now();
    const cases = replayed === undefined ? whole : whole.slice(replayed, replayed + 1);
    const sent = await sendWhole({
      cases,
      concurrency: options.concurrency,
      exchange,
      judge,
      onAnswer: (ex) => {
        noteOutcome(ex.outcome);
        const key = ex.outcome.kind === 'response' ? String(ex.outcome.status) : 'dropped';
        stats.statuses[key] = (stats.statuses[key] ?? 0) + 1;
        stats.clients[ex.client] = (stats.clients[ex.client] ?? 0) + 1;
      },
    });
    stats.cases += sent.sent;
    for (const [reason, n] of Object.entries(sent.unjudged))
      stats.unjudged[reason] = (stats.unjudged[reason] ?? 0) + n;
    if (sent.stopped !== undefined) stats.stopped = sent.stopped;
    stats.durationMs = performance.now() - started;
    const first = sent.failed[0];
    if (first !== undefined) {
      const index = (replayed ?? 0) + first.index;
      const failure = describeFailure(
        options,
        stats,
        first.exchange,
        first.verdict,
        `${WHOLE_PATH}${index}`,
        0,
      );
      return { stats, failure: withClasses(options, failure, wholeClasses(sent.failed, options.classify)) };
    }
    if (replayed !== undefined || stats.stopped !== undefined) return { stats };
  }

  if (stats.numRuns === 0 || stats.cases >= options.cases) return { stats };
  const started = performance.now();
  const details = await fc.check(property, {
    seed,
    numRuns: stats.numRuns,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  stats.durationMs = performance.now() - started;

  if (!details.failed) return { stats };
  if (last === undefined || details.counterexamplePath === null) {
    // The property threw (a bug here, not in the target): surface it as it is.
    throw details.errorInstance instanceof Error
      ? details.errorInstance
      : new Error(String(details.errorInstance));
  }
  const failure = describeFailure(
    options,
    stats,
    last.exchange,
    last.verdict,
    details.counterexamplePath,
    details.numShrinks,
  );
  // A replay shows its one counterexample; a rule the budget stopped has no share left to sweep.
  if (options.path !== undefined || stats.stopped !== undefined) return { stats, failure };
  const sendAndJudge = async (batch: readonly FuzzRequest[]): Promise<Failed[]> => {
    const answered = await mapConcurrent(batch, options.concurrency, async (request) => {
      try {
        return await exchange(request);
      } catch (e) {
        if (e instanceof RunBudgetExhausted) return undefined;
        throw e;
      }
    });
    const out: Failed[] = [];
    for (const ex of answered) {
      if (ex === undefined) continue;
      noteOutcome(ex.outcome);
      const verdict = judge(ex);
      if (verdict.result === 'fail') out.push({ exchange: ex, verdict });
    }
    return out;
  };
  const sweep = await sweepClasses(
    {
      sendAndJudge,
      arbitrary: options.arbitrary,
      batchMax: BATCH_MAX,
      ...(options.classify === undefined ? {} : { classify: options.classify }),
    },
    // A seed of its own: the sweep sends cases the property did not.
    (seed + 1) | 0,
    Math.max(0, options.cases - stats.cases),
    classOf(last.exchange, options.classify),
  );
  stats.sweepCases = sweep.requests;
  stats.durationMs = performance.now() - started;
  return { stats, failure: withClasses(options, failure, sweep) };
}
