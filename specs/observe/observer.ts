/**
 * The observers' hook: `observe(seen)` runs every judge (specs/observe/judges.ts) on one response and keeps a
 * tally per rule in this process — responses of its kind, faults, the first fault's evidence (credentials
 * redacted when it is built). `flushObservations()` writes the tallies for the verdicts (store.ts); the
 * fixtures call it after every test.
 */
import { BODY_LIMIT, type Outcome, type WireRequest } from '../fuzz/clients/types.ts';
import type { Profile } from '../profile/types.ts';
import { observedRefusalNoResource } from '../rules/refusal.ts';
import { type Tallies, targetDir, writeTallies } from '../run/observation-store.ts';
import { buildEvidence } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';
import { JUDGES, type ObserverContext, observerContext, type Seen } from './judges.ts';
import { RefusalWatch } from './refusal-resource.ts';

interface Log {
  readonly dir: string;
  readonly tallies: Tallies;
  dirty: boolean;
}

/** One log per target this process checks (a mutation-run worker checks one; the key keeps them apart). */
const logs = new Map<string, Log>();

export interface Observer {
  observe(seen: Seen): void;
}

function logFor(baseUrl: string): Log {
  const dir = targetDir(baseUrl);
  let log = logs.get(dir);
  if (!log) {
    log = { dir, tallies: {}, dirty: false };
    logs.set(dir, log);
  }
  return log;
}

/** The hook for the responses of `baseUrl`, judged with what `profile` says of its paths. */
export function observerFor(profile: Profile, baseUrl: string): Observer {
  const log = logFor(baseUrl);
  const context: ObserverContext = observerContext(profile);
  const refusals = new RefusalWatch(profile);
  const refusalRule = observedRefusalNoResource.id;
  return {
    observe(seen) {
      // Stateful: it learns what the protected resources look like from the run (refusal-resource.ts).
      log.tallies[refusalRule] ??= { seen: 0, faults: 0 };
      if (refusals.observe(seen, log.tallies[refusalRule], exchangeOf)) log.dirty = true;
      for (const judge of JUDGES) {
        const verdict = judge.judge(seen, context);
        if (verdict === undefined) continue;
        const tally = log.tallies[judge.rule.id] ?? { seen: 0, faults: 0 };
        log.tallies[judge.rule.id] = tally;
        tally.seen++;
        log.dirty = true;
        if (verdict === null) continue;
        tally.faults++;
        if (!tally.first)
          tally.first = {
            at: Date.now(),
            evidence: buildEvidence(judge.rule, exchangeOf(seen), verdict.expected, verdict.actual),
          };
      }
    },
  };
}

/** Writes every changed log of this process. */
export function flushObservations(): void {
  for (const log of logs.values()) {
    if (!log.dirty) continue;
    writeTallies(log.dir, log.tallies);
    log.dirty = false;
  }
}

/** A seen response as the verifiers' Exchange, so its evidence is built (and redacted) like any other. */
export function exchangeOf(seen: Seen): Exchange {
  if (seen.exchange) return seen.exchange;
  const headerLines = Object.entries(seen.headers);
  return {
    request: {
      method: seen.method,
      url: seen.url,
      headerLines: seen.authorization.map((v) => ['Authorization', v] as const),
    },
    status: seen.status,
    headers: seen.headers,
    headerLines,
    body: seen.body,
    ms: 0,
  };
}

/** The suite's Exchange as a seen response. */
export function seenOf(ex: Exchange): Seen {
  return {
    method: ex.request.method,
    url: ex.request.url,
    authorization: ex.request.headerLines
      .filter(([n]) => n.toLowerCase() === 'authorization')
      .map(([, v]) => v),
    status: ex.status,
    headers: ex.headers,
    body: ex.body,
    exchange: ex,
  };
}

/** A fuzz client's answer as a seen response (a dropped connection is nothing to judge). */
export function observeOutcome(observer: Observer): (request: WireRequest, outcome: Outcome) => void {
  return (request, outcome) => {
    if (outcome.kind !== 'response') return;
    observer.observe({
      method: request.method,
      url: request.url,
      authorization: request.authorization,
      status: outcome.status,
      headers: outcome.headers,
      body: outcome.body,
      truncated: outcome.body.length >= BODY_LIMIT,
    });
  };
}

/**
 * A test-scoped automatic fixture for the suite's test types: after each test, this process's tallies go
 * to the store, so the verdicts (a later project) find every response the test's checks received.
 */
export const observationsFlush: [
  (args: object, use: (value: undefined) => Promise<void>) => Promise<void>,
  { auto: true; scope: 'test' },
] = [
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their fixtures by destructuring.
  async ({}, use) => {
    await use(undefined);
    flushObservations();
  },
  { auto: true, scope: 'test' },
];
