/**
 * The observer of observed.refusal.no-resource (specs/rules/refusal.ts): no 401 or 403 the run receives
 * carries a protected resource. Unlike the pure judges (judges.ts) it needs to know what the resources look
 * like, and learns it from the run itself: the 2xx a GET with credentials gets on a declared protected path
 * (endpoints.protected, endpoints.admin, the rate-limit endpoint) is fingerprinted
 * (specs/lib/resource-fingerprint.ts). Every 401 and 403 is then searched for every resource seen.
 *
 * Tests run in parallel, so a worker may see refusals before it sees any resource: those wait in the tally
 * (distinct bodies, at most MAX_PENDING), are judged as soon as the worker learns a resource, and whatever
 * still waits at the end is judged by the verdict against the resources every worker learnt (settle).
 */

import { type Fingerprint, fingerprintOf, requestCarried, resourceIn } from '../lib/resource-fingerprint.ts';
import { pathOf } from '../profile/methods.ts';
import { rateLimitEndpoints } from '../profile/rate-policy.ts';
import type { Profile } from '../profile/types.ts';
import { observedRefusalNoResource } from '../rules/refusal.ts';
import type { PendingRefusal, Tally } from '../run/observation-store.ts';
import { buildEvidence } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';
import { carriesNoContent, type Seen } from './judges.ts';

export const REFUSAL_KIND = '401 and 403 answers';
/** Distinct refusal bodies kept waiting per worker: the same refusal repeats, a resource comes early. */
const MAX_PENDING = 32;
const EXPECTED = 'a refusal without the protected resource';

/** The GET paths whose 2xx are protected resources. */
function guardedPaths(profile: Profile): Set<string> {
  const { protected: prot, admin } = profile.endpoints;
  const out = new Set<string>();
  for (const e of [prot, admin, ...rateLimitEndpoints(profile)])
    if (e?.schemes?.length && (e.method ?? 'GET').toUpperCase() === 'GET') out.add(pathOf(e.path));
  return out;
}

/** What of a resource `body` carries, searched for in each resource seen; undefined when none. */
function carried(
  body: string,
  fingerprints: Readonly<Record<string, Fingerprint>>,
  request = '',
): string | undefined {
  for (const [path, fingerprint] of Object.entries(fingerprints)) {
    const what = resourceIn(body, fingerprint, request);
    if (what !== undefined) return `${what} (of ${path})`;
  }
  return undefined;
}

/** Counts a refusal (and its repeats) into the tally, judged against `fingerprints`. */
function judge(
  tally: Tally,
  refusal: PendingRefusal,
  fingerprints: Readonly<Record<string, Fingerprint>>,
): void {
  tally.seen += refusal.count;
  const what = carried(refusal.body, fingerprints, refusal.request);
  if (what === undefined) return;
  tally.faults += refusal.count;
  if (!tally.first || refusal.at < tally.first.at)
    tally.first = { at: refusal.at, evidence: { ...refusal.evidence, actual: `a body carrying ${what}` } };
}

export class RefusalWatch {
  private readonly guarded: Set<string>;

  constructor(profile: Profile) {
    this.guarded = guardedPaths(profile);
  }

  /** Learns a resource or judges a refusal; whether the tally changed. */
  observe(seen: Seen, tally: Tally, exchangeOf: (seen: Seen) => Exchange): boolean {
    tally.fingerprints ??= {};
    const { fingerprints } = tally;
    if (seen.status >= 200 && seen.status < 300) {
      if (seen.method !== 'GET' || seen.authorization.length === 0 || seen.truncated) return false;
      const path = pathOf(new URL(seen.url).pathname);
      if (!this.guarded.has(path) || fingerprints[path] !== undefined) return false;
      const fingerprint = fingerprintOf(seen.body);
      if (fingerprint === undefined) return false;
      fingerprints[path] = fingerprint;
      // The refusals that waited for a resource are judged now.
      for (const pending of tally.pending ?? []) judge(tally, pending, fingerprints);
      tally.pending = [];
      return true;
    }
    if ((seen.status !== 401 && seen.status !== 403) || seen.body.length === 0 || carriesNoContent(seen))
      return false;
    // What the request carried (its path, method, field values) is no evidence of the resource when echoed.
    const request = requestCarried(
      seen.exchange?.request ?? {
        method: seen.method,
        url: seen.url,
        headerLines: seen.authorization.map((value) => ['authorization', value] as const),
      },
    );
    const evidence = (actual: string) =>
      // Built while the request's credentials are known, so that they are redacted from it.
      buildEvidence(observedRefusalNoResource, exchangeOf(seen), EXPECTED, actual);
    if (Object.keys(fingerprints).length > 0) {
      tally.seen++;
      const what = carried(seen.body, fingerprints, request);
      if (what === undefined) return true;
      tally.faults++;
      tally.first ??= { at: Date.now(), evidence: evidence(`a body carrying ${what}`) };
      return true;
    }
    // No resource known yet: the refusal waits (once per distinct body).
    tally.pending ??= [];
    const { pending } = tally;
    const same = pending.find((p) => p.body === seen.body && p.request === request);
    if (same !== undefined) same.count++;
    else if (pending.length >= MAX_PENDING) tally.unjudged = (tally.unjudged ?? 0) + 1;
    else
      pending.push({
        body: seen.body,
        request,
        count: 1,
        at: Date.now(),
        evidence: evidence('a body carrying a resource'),
      });
    return true;
  }
}

/**
 * The tally with the refusals still waiting judged against every resource the run's workers learnt (the
 * tallies merged by store.ts); unchanged when no worker learnt one.
 */
export function settleRefusals(tally: Tally): Tally {
  const fingerprints = tally.fingerprints ?? {};
  if (Object.keys(fingerprints).length === 0) return tally;
  const out: Tally = { ...tally, pending: [] };
  for (const pending of tally.pending ?? []) judge(out, pending, fingerprints);
  return out;
}
