/**
 * Rate limiting (seed §8; RFC 6585 §4): a burst with the profile's throw-away identity (default
 * `ratelimit`, so no other check is limited), the Retry-After it gets, and recovery after the wait.
 * The three checks share one burst, so this file runs in order in one worker.
 */
import { forRule, test } from '../fixtures.ts';
import type { Exchange } from '../lib/http.ts';
import { type Kit, lacks, need, unmet } from '../lib/kit.ts';
import { parseRetryAfter } from '../lib/retry-after.ts';
import { expectRule, expectStatus } from '../lib/verify.ts';
import { rateLimited, recovery, retryAfter } from '../rules/rate-limit.ts';

test.describe.configure({ mode: 'default' });

/** Longest the recovery check waits for a window to pass. */
const MAX_WAIT_SECONDS = 60;
const LIMITED = [429, 403];

interface Plan {
  readonly request: { method: string; path: string };
  readonly authorization: string | undefined;
  readonly limit: number;
  readonly maxSend: number;
}

interface Burst extends Plan {
  /** The first limited answer, if the burst got one. */
  readonly limited: Exchange | undefined;
  readonly last: Exchange;
  readonly sent: number;
  /** Why the burst could not be judged (its first request was refused for another reason). */
  readonly problem?: string;
}

/** What the burst needs from the profile; skips the calling test when something is missing. */
async function plan(kit: Kit): Promise<Plan> {
  const rl = need(
    kit.profile.rateLimit,
    'rateLimit',
    'the limit is not declared, so no bounded burst can be known to exceed it',
  );
  const identity = rl.identity ?? 'ratelimit';
  const endpoint = need(
    rl.endpoint ?? kit.endpoint('protected'),
    'rateLimit.endpoint',
    'no path to send the burst to',
  );
  let authorization: string | undefined;
  for (const scheme of endpoint.schemes ?? []) {
    authorization ??= await kit.authorization(identity, scheme);
  }
  if (endpoint.schemes?.length && !authorization) {
    lacks(`identities.${identity}`, `no credential in a scheme ${endpoint.path} accepts, for the burst`);
  }
  // A window aligned to the clock may let up to 2 × limit through across its boundary.
  const maxSend = 2 * rl.limit + 1;
  return {
    request: { method: endpoint.method ?? 'GET', path: endpoint.path },
    authorization,
    limit: rl.limit,
    maxSend,
  };
}

async function send(kit: Kit, p: Plan): Promise<Burst> {
  const { request, authorization } = p;
  const first = await kit.send(request, authorization);
  // A 403 before the burst is a refusal for another reason (or a ban from an earlier run), not the limit.
  if (first.status !== 429 && (first.status < 200 || first.status > 299)) {
    return {
      ...p,
      limited: undefined,
      last: first,
      sent: 1,
      problem: `the burst identity's first request answered ${first.status}, not 2xx`,
    };
  }
  let sent = 1;
  let last = first;
  let limited = first.status === 429 ? first : undefined;
  if (!limited && p.limit > 1) {
    // Up to the limit at the profile's concurrency (the budget caps requests in flight).
    const wave = await Promise.all(
      Array.from({ length: p.limit - 1 }, () => kit.send(request, authorization)),
    );
    sent += wave.length;
    last = wave[wave.length - 1] ?? last;
    limited = wave.find((ex) => LIMITED.includes(ex.status));
  }
  // Then one at a time, stopping at the first limited answer (a target may ban a client that keeps going).
  while (!limited && sent < p.maxSend) {
    last = await kit.send(request, authorization);
    sent++;
    if (LIMITED.includes(last.status)) limited = last;
  }
  return { ...p, limited, last, sent };
}

/** One burst per worker, shared by the three checks; each check first makes its own plan (and may skip). */
let burst: Promise<Burst> | undefined;

async function sharedBurst(kit: Kit): Promise<Burst> {
  const p = await plan(kit);
  if (!burst) {
    if (kit.target.budget.remaining < p.maxSend + 5) {
      lacks(
        'budget.maxRequests',
        `a burst needs up to ${p.maxSend} requests; this worker has ${kit.target.budget.remaining} left`,
      );
    }
    burst = send(kit, p);
  }
  const b = await burst;
  if (b.problem) unmet(b.problem);
  return b;
}

test(
  'burst of more than the declared limit within one window → 429 (or 403)',
  forRule(rateLimited),
  async ({ kit }) => {
    const b = await sharedBurst(kit);
    expectRule(
      b.limited !== undefined,
      rateLimited,
      b.last,
      `status 429 (or 403) within ${b.maxSend} requests (limit ${b.limit} per ${kit.profile.rateLimit?.windowSeconds} s)`,
      `${b.sent} requests, none limited; the last answered ${b.last.status}`,
    );
    if (b.limited) expectStatus(b.limited, LIMITED, rateLimited);
  },
);

test(
  'the 429 of the burst → Retry-After, when present, is delay-seconds or an HTTP-date',
  forRule(retryAfter),
  async ({ kit }) => {
    const b = await sharedBurst(kit);
    if (b.limited?.status !== 429) unmet(`the burst got no 429 (see ${rateLimited.id})`);
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
    const b = await sharedBurst(kit);
    if (!b.limited) unmet(`the burst was never limited (see ${rateLimited.id})`);
    const rl = kit.profile.rateLimit;
    const hinted = b.limited.headers['retry-after'];
    const wait = Math.max(
      parseRetryAfter(hinted ?? '') ?? 0,
      hinted === undefined ? (rl?.windowSeconds ?? 0) : 0,
    );
    if (wait > MAX_WAIT_SECONDS)
      unmet(`waiting ${wait} s for the window exceeds the suite's cap of ${MAX_WAIT_SECONDS} s`);
    testInfo.setTimeout(testInfo.timeout + (wait + 10) * 1000);
    await new Promise((r) => setTimeout(r, wait * 1000 + 250));
    // A few tries a second apart, fewer than a ban threshold.
    const tries = Math.max(1, Math.min(3, (rl?.banAfter ?? 4) - 1));
    let ex: Exchange | undefined;
    for (let i = 0; i < tries; i++) {
      ex = await kit.send(b.request, b.authorization);
      if (ex.status >= 200 && ex.status <= 299) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expectRule(
      false,
      recovery,
      ex,
      `status 2xx after waiting ${wait} s`,
      `status ${ex?.status} ${tries} times in a row`,
    );
  },
);
