/**
 * Rate limiting (seed §8; RFC 6585 §4): a burst with the profile's throw-away identity (default
 * `ratelimit`, so no other check is limited), the Retry-After it gets, and recovery after the wait.
 * The three checks share one burst, so this file runs in order in one worker. These are the only requests of
 * the run that provoke the limit on purpose: they are sent `provoking` (a limited answer is returned to them,
 * not waited out by the run's scheduler), inside the scheduler's exclusive use where the limit is shared.
 */
import type { TestInfo } from '@playwright/test';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, need, unmet } from '../kit/kit.ts';
import { parseRetryAfter } from '../lib/retry-after.ts';
import { ratePolicyOf } from '../profile/rate-policy.ts';
import { rateLimited, recovery, retryAfter } from '../rules/rate-limit.ts';
import { firstLimited, LIMITED_STATUSES } from '../verdict/first-limited.ts';
import { expectRule, expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

test.describe.configure({ mode: 'default' });

/** Longest the recovery check waits for a window to pass. */
const MAX_WAIT_SECONDS = 60;
/** Most requests of the burst sent at once after its first wave (see sendBurst). */
const MAX_WAVE = 16;

interface Plan {
  readonly request: { method: string; path: string };
  readonly authorization: string | undefined;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly banAfter: number | undefined;
  /** The declared limit the burst meets (under several, the one that applies to its endpoint), for messages. */
  readonly entry: string;
  /** The limits the burst must go past before no limited answer says anything (BurstPlan.conclusiveBeyond). */
  readonly beyond: readonly { readonly limit: number; readonly windowMs: number }[];
  readonly maxSend: number;
  /** Requests sent at once after the first wave. */
  readonly wave: number;
}

interface Burst extends Plan {
  /** The target's first limited answer, if the burst got one (firstLimited). */
  readonly limited: Exchange | undefined;
  readonly last: Exchange;
  readonly sent: number;
  /** Why the burst could not be judged (its first request was refused for another reason). */
  readonly problem?: string;
}

/** What the same client got after waiting out the limit. */
interface Recovery {
  readonly waitedSeconds: number;
  /** The answers after the wait, up to the first 2xx. */
  readonly answers: readonly Exchange[];
  /** Why recovery could not be tried. */
  readonly problem?: string;
}

/** What the burst needs from the profile; skips the calling test when something is missing. */
async function plan(kit: Kit): Promise<Plan> {
  const rate = ratePolicyOf(kit.profile);
  const burst = need(
    rate.burst,
    'rateLimit',
    'the limit is not declared, so no bounded burst can be known to exceed it',
  );
  const { identity, entry } = burst;
  const endpoint = need(burst.endpoint, 'rateLimit.endpoint', 'no path to send the burst to');
  let authorization: string | undefined;
  for (const scheme of endpoint.schemes ?? []) {
    authorization ??= await kit.authorization(identity, scheme);
  }
  if (endpoint.schemes?.length && !authorization) {
    lacks(`identities.${identity}`, `no credential in a scheme ${endpoint.path} accepts, for the burst`);
  }
  // A window aligned to the clock may let up to 2 × limit through across its boundary, so the burst is
  // conclusive only once one window-length span holds more than 2 × limit; a client slower than that needs
  // more requests to get there, and gives up at twice as many.
  const beyond = burst.conclusiveBeyond.map((e) => ({ limit: e.limit, windowMs: e.windowSeconds * 1000 }));
  const maxSend = Math.max(...beyond.map((b) => 4 * b.limit + 2));
  const banAfter = burst.banAfter;
  const wave = banAfter === undefined ? 1 : Math.max(1, Math.min(MAX_WAVE, Math.floor(banAfter / 2)));
  return {
    request: { method: endpoint.method ?? 'GET', path: endpoint.path },
    authorization,
    limit: entry.limit,
    windowSeconds: entry.windowSeconds,
    banAfter,
    entry: rate.entries.length > 1 ? `${burst.conclusiveBeyond.map((e) => e.label).join(' and ')}: ` : '',
    beyond,
    maxSend,
    wave,
  };
}

/** The burst's requests are judged as they come: a limited answer is what it is looking for. */
const PROVOKING = { provoking: true } as const;

/** Most of `times` (ms) that fall within any span of `windowMs`. */
function mostWithin(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let lo = 0, hi = 0; hi < sorted.length; hi++) {
    while ((sorted[hi] ?? 0) - (sorted[lo] ?? 0) >= windowMs) lo++;
    most = Math.max(most, hi - lo + 1);
  }
  return most;
}

/**
 * The first limit the burst has not gone past: past one, a span of its window holds more than 2 × limit
 * answers. Such a span overlaps at most two windows aligned to the clock, so one of them saw more than the
 * limit — whatever the target counts in (fixed or sliding windows, a token bucket).
 */
function notPast(sentAt: readonly number[], beyond: Plan['beyond']): Plan['beyond'][number] | undefined {
  return beyond.find((b) => mostWithin(sentAt, b.windowMs) <= 2 * b.limit);
}

async function send(kit: Kit, p: Plan): Promise<Burst> {
  const burst = await sendBurst(kit, p);
  if (burst.limited || burst.problem) return burst;
  // A client slower than that cannot show the limit missing: no limited answer then says nothing.
  const short = notPast(burst.sentAt, p.beyond);
  if (short !== undefined) {
    const most = mostWithin(burst.sentAt, short.windowMs);
    return {
      ...burst,
      problem: `the suite sent at most ${most} requests within one ${short.windowMs / 1000} s window, not more than twice the declared limit of ${short.limit} (a window aligned to the clock may let that many through)`,
    };
  }
  return burst;
}

async function sendBurst(kit: Kit, p: Plan): Promise<Burst & { sentAt: number[] }> {
  const { request, authorization } = p;
  const sentAt: number[] = [];
  // When each answer came: a request is counted by the target before its answer leaves, so answer times
  // spread no less than the target's counts (an undercount here skips, never fails, the check).
  const at = async <T>(sending: Promise<T>): Promise<T> => {
    const answer = await sending;
    sentAt.push(Date.now());
    return answer;
  };
  const first = await at(kit.send(request, authorization, undefined, PROVOKING));
  // A 403 before the burst is a refusal for another reason (or a ban from an earlier run), not the limit.
  if (first.status !== 429 && (first.status < 200 || first.status > 299)) {
    return {
      ...p,
      limited: undefined,
      last: first,
      sent: 1,
      sentAt,
      problem: `the burst identity's first request answered ${first.status}, not 2xx`,
    };
  }
  let sent = 1;
  let last = first;
  let limited = first.status === 429 ? first : undefined;
  if (!limited && p.limit > 1) {
    // Up to the limit at the profile's concurrency (the budget caps requests in flight).
    const wave = await Promise.all(
      Array.from({ length: p.limit - 1 }, () => at(kit.send(request, authorization, undefined, PROVOKING))),
    );
    sent += wave.length;
    last = wave[wave.length - 1] ?? last;
    limited = firstLimited(wave);
  }
  // Then in small waves, stopping after the first limited answer: a target may ban a client that keeps going,
  // so a wave is at most half the limited answers the profile says it tolerates (one at a time when it does
  // not say). Answers come in order here, so the newest span is the one to watch (a linear count, not a sort).
  const newestSpanFull = () => {
    const newest = sentAt[sentAt.length - 1] ?? 0;
    return p.beyond.every((b) => sentAt.filter((t) => t > newest - b.windowMs).length > 2 * b.limit);
  };
  let done = notPast(sentAt, p.beyond) === undefined;
  while (!limited && sent < p.maxSend && !done) {
    const size = Math.min(p.wave, p.maxSend - sent);
    const wave = await Promise.all(
      Array.from({ length: size }, () => at(kit.send(request, authorization, undefined, PROVOKING))),
    );
    sent += wave.length;
    last = wave[wave.length - 1] ?? last;
    limited = firstLimited(wave);
    done = newestSpanFull();
  }
  return { ...p, limited, last, sent, sentAt };
}

/** Seconds the limited answer asks the client to wait: Retry-After, else the declared window. */
function waitAsked(p: Plan, limited: Exchange): number {
  const hinted = limited.headers['retry-after'];
  return Math.max(parseRetryAfter(hinted ?? '') ?? 0, hinted === undefined ? p.windowSeconds : 0);
}

async function recover(kit: Kit, b: Burst): Promise<Recovery> {
  if (!b.limited || b.problem) return { waitedSeconds: 0, answers: [], problem: 'no limited answer' };
  const wait = waitAsked(b, b.limited);
  if (wait > MAX_WAIT_SECONDS) {
    return {
      waitedSeconds: 0,
      answers: [],
      problem: `waiting ${wait} s for the window exceeds the suite's cap of ${MAX_WAIT_SECONDS} s`,
    };
  }
  await new Promise((r) => setTimeout(r, wait * 1000 + 250));
  // A few tries a second apart, fewer than a ban threshold.
  const tries = Math.max(1, Math.min(3, (b.banAfter ?? 4) - 1));
  const answers: Exchange[] = [];
  for (let i = 0; i < tries; i++) {
    const ex = await kit.send(b.request, b.authorization, undefined, PROVOKING);
    answers.push(ex);
    if (ex.status >= 200 && ex.status <= 299) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { waitedSeconds: wait, answers };
}

/**
 * One burst and one recovery per worker, shared by the three checks; each check first makes its own plan (and
 * may skip). Where the declared limit is shared by the whole run (per address or per endpoint) the run's
 * scheduler gives them the target to themselves and waits out what is left of their window afterwards, so
 * no other check meets the limit they provoked.
 */
let shared: Promise<{ burst: Burst; recovery: Recovery }> | undefined;

async function sharedBurst(kit: Kit, testInfo: TestInfo): Promise<{ burst: Burst; recovery: Recovery }> {
  const p = await plan(kit);
  // The burst, the wait for the window and the recovery tries.
  testInfo.setTimeout(testInfo.timeout + (MAX_WAIT_SECONDS + 15) * 1000);
  shared ??= kit.target.scheduler.exclusive(async () => {
    const burst = await send(kit, p);
    const recovery = await recover(kit, burst);
    const last = recovery.answers[recovery.answers.length - 1] ?? burst.limited;
    const recovered = last !== undefined && last.status >= 200 && last.status <= 299;
    // Still limited after the tries: the rest of the run waits out what the last answer asks for.
    const cooldownMs = recovered || last === undefined ? 0 : waitAsked(p, last) * 1000 + 250;
    return { result: { burst, recovery }, cooldownMs };
  });
  return shared;
}

test(
  'burst of more than the declared limit within one window → 429 (or 403)',
  forRule(rateLimited),
  async ({ kit }, testInfo) => {
    const { burst: b } = await sharedBurst(kit, testInfo);
    if (b.problem) unmet(b.problem);
    expectRule(
      b.limited !== undefined,
      rateLimited,
      b.last,
      `${b.entry}status 429 (or 403) once ${b.beyond.map((l) => `one ${l.windowMs / 1000} s span held more than 2 × ${l.limit} requests (limit ${l.limit} per ${l.windowMs / 1000} s)`).join(' and ')}`,
      `${b.sent} requests, none limited; the last answered ${b.last.status}`,
    );
    if (b.limited) expectStatus(b.limited, LIMITED_STATUSES, rateLimited);
  },
);

test(
  'the 429 of the burst → Retry-After, when present, is delay-seconds or an HTTP-date',
  forRule(retryAfter),
  async ({ kit }, testInfo) => {
    const { burst: b } = await sharedBurst(kit, testInfo);
    if (b.problem) unmet(b.problem);
    if (b.limited?.status !== 429) unmet(`the burst got no 429 (see ${rateLimited.id})`, [rateLimited.id]);
    const value = b.limited.headers['retry-after'];
    if (value === undefined) {
      kit.observe('the 429 carries no Retry-After (allowed: RFC 6585 §4 says MAY)');
      return;
    }
    expectRule(
      parseRetryAfter(value) !== undefined,
      retryAfter,
      b.limited,
      'Retry-After: <seconds> or an HTTP-date',
      `Retry-After: ${value}`,
    );
  },
);

test(
  'after the Retry-After delay (or the window) has passed → the same client gets 2xx again',
  forRule(recovery),
  async ({ kit }, testInfo) => {
    const { burst: b, recovery: after } = await sharedBurst(kit, testInfo);
    if (b.problem) unmet(b.problem);
    if (!b.limited) unmet(`the burst was never limited (see ${rateLimited.id})`, [rateLimited.id]);
    if (after.problem) unmet(after.problem);
    const last = after.answers[after.answers.length - 1];
    if (last !== undefined && last.status >= 200 && last.status <= 299) return;
    expectRule(
      false,
      recovery,
      last,
      `status 2xx after waiting ${after.waitedSeconds} s`,
      `status ${last?.status} ${after.answers.length} times in a row`,
    );
  },
);
