/**
 * The observers' judges: one per observer rule (specs/rules/observed.ts), each a pure function of one
 * response and what the profile says of its path. A judge says whether the response is of its kind and, if
 * so, what is wrong with it. Cheap by design: they run on every response of the run, fuzz cases included.
 */
import { memoized, pathnameOf } from '../lib/memo.ts';
import { redactAuthorization } from '../lib/redact.ts';
import { parseRetryAfter } from '../lib/retry-after.ts';
import { stackTraceIn } from '../lib/stack-trace.ts';
import { challengesFor, challengesIn, param } from '../lib/www-authenticate.ts';
import { CANONICAL_SCHEME_NAME, CredentialMaker } from '../profile/credential-maker.ts';
import { parseAllow, pathOf } from '../profile/methods.ts';
import { rateLimitEndpoints } from '../profile/rate-policy.ts';
import type { Profile, Scheme } from '../profile/types.ts';
import {
  observed401Challenge,
  observed405Allow,
  observed429RetryAfter,
  observedBearerError,
  observedNoEcho,
  observedNoStack,
  observedProblemStatus,
} from '../rules/observed.ts';
import { observedNo5xx } from '../rules/observed-server-error.ts';
import type { Rule } from '../rules/types.ts';
import type { Exchange } from '../wire/http.ts';
import { type Declared5xx, declared5xx } from './declared-5xx.ts';

/**
 * RFC 9110 §9.3.2 (HEAD), §15.3.5 (204), §15.4.5 (304): no content, whatever the content fields say — a
 * judge of the body has nothing to judge.
 */
export function carriesNoContent(seen: Seen): boolean {
  return seen.method === 'HEAD' || seen.status === 204 || seen.status === 304;
}

/** One response the run received, with the request that caused it. */
export interface Seen {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** The Authorization field values sent. */
  readonly authorization: readonly string[];
  readonly status: number;
  /** Lower-case names; repeated fields joined with ', ' (RFC 9110 §5.3). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body was cut (the fuzz clients keep 2 KiB): a judge of the whole body must not guess. */
  readonly truncated?: boolean;
  /** The suite's exchange, when a check sent it: the evidence then shows the whole request. */
  readonly exchange?: Exchange;
}

/** What the judges need from the profile: the schemes each declared path and method accepts. */
export interface ObserverContext {
  schemes(path: string, method: string): readonly Scheme[] | undefined;
  /** The challenge scheme name of each scheme as the target spells it; a key sent alone has none. */
  readonly names?: Readonly<Partial<Record<Scheme, string>>>;
  /** Other words the target takes for each scheme (profile `schemeAliases`): a challenge naming one is right. */
  readonly aliases?: Readonly<Partial<Record<Scheme, readonly string[]>>>;
  /** The 5xx answers the profile declares or a text allows (declared-5xx.ts); absent: none. */
  readonly declared5xx?: Declared5xx;
}

export function observerContext(profile: Profile): ObserverContext {
  const accepted = new Map<string, readonly Scheme[]>();
  const { protected: prot, admin, collection, methodNotAllowed } = profile.endpoints;
  for (const e of [prot, admin, methodNotAllowed, ...rateLimitEndpoints(profile)]) {
    if (e?.schemes?.length) accepted.set(`${(e.method ?? 'GET').toUpperCase()} ${pathOf(e.path)}`, e.schemes);
  }
  if (collection?.writeSchemes?.length)
    accepted.set(`POST ${pathOf(collection.path)}`, collection.writeSchemes);
  return {
    schemes: (path, method) => accepted.get(`${method.toUpperCase()} ${pathOf(path)}`),
    names: CredentialMaker.for(profile).words,
    declared5xx: declared5xx(profile),
  };
}

/** `undefined`: the response is not of the judge's kind. `null`: it is, and it is fine. */
export type Verdict = undefined | null | { readonly expected: string; readonly actual: string };

export interface Judge {
  readonly rule: Rule;
  /** The responses judged, plural, for messages: "401 answers". */
  readonly kind: string;
  judge(seen: Seen, context: ObserverContext): Verdict;
}

export const challengeJudge: Judge = {
  rule: observed401Challenge,
  kind: '401 answers',
  judge(seen, context) {
    if (seen.status !== 401) return undefined;
    const field = seen.headers['www-authenticate'];
    const expected = 'WWW-Authenticate with a challenge the endpoint accepts, realms quoted, Basic realm="…"';
    // RFC 9110 §15.5.2: the server generating a 401 MUST send a WWW-Authenticate with at least one challenge.
    if (field === undefined) return { expected, actual: 'no WWW-Authenticate' };
    const challenges = challengesIn(field);
    if (challenges === undefined || challenges.length === 0)
      return { expected, actual: `WWW-Authenticate: ${field} (not a list of challenges)` };
    const names = (context.schemes(pathnameOf(seen.url), seen.method) ?? [])
      .flatMap((s) => [(context.names ?? CANONICAL_SCHEME_NAME)[s], ...(context.aliases?.[s] ?? [])])
      .filter((n): n is string => n !== undefined);
    if (names.length > 0 && !names.some((n) => challengesFor(challenges, n).length > 0))
      return {
        expected: `a challenge for ${names.join(' or ')}`,
        actual: `WWW-Authenticate: ${field}`,
      };
    // RFC 9110 §11.5: the realm value is always sent as a quoted-string.
    if (challenges.some((c) => c.params.some((p) => p.name.toLowerCase() === 'realm' && !p.quoted)))
      return { expected: 'realm as a quoted-string', actual: `WWW-Authenticate: ${field}` };
    for (const basic of challengesFor(challenges, CANONICAL_SCHEME_NAME.basic)) {
      // RFC 7617 §2: the realm parameter is REQUIRED.
      if (param(basic, 'realm') === undefined)
        return { expected: 'Basic with a realm parameter', actual: `WWW-Authenticate: ${field}` };
      // RFC 7617 §2.1: the only allowed charset value is "UTF-8" (case-insensitive).
      const charset = param(basic, 'charset');
      if (charset !== undefined && charset.toLowerCase() !== 'utf-8')
        return { expected: 'Basic charset="UTF-8" or none', actual: `WWW-Authenticate: ${field}` };
    }
    return null;
  },
};

/** RFC 6750 §3.1: each error code and the status it comes with. */
const BEARER_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
};

export const bearerErrorJudge: Judge = {
  rule: observedBearerError,
  kind: 'Bearer challenges with an error code',
  judge(seen) {
    const field = seen.headers['www-authenticate'];
    if (field === undefined || !/error/i.test(field)) return undefined;
    const bearer = challengesFor(challengesIn(field) ?? [], CANONICAL_SCHEME_NAME.bearer);
    const codes = bearer.map((c) => param(c, 'error')).filter((e): e is string => e !== undefined);
    if (codes.length === 0) return undefined;
    for (const code of codes) {
      if (BEARER_ERROR_STATUS[code] !== seen.status)
        return {
          expected: 'invalid_request with 400, invalid_token with 401, insufficient_scope with 403',
          actual: `error="${code}" with ${seen.status}`,
        };
    }
    return null;
  },
};

export const allowJudge: Judge = {
  rule: observed405Allow,
  kind: '405 answers',
  judge(seen) {
    if (seen.status !== 405) return undefined;
    const field = seen.headers.allow;
    const expected = `Allow: a list of method tokens without ${seen.method}`;
    // RFC 9110 §15.5.6: the origin server MUST generate an Allow header field in a 405 response.
    if (field === undefined) return { expected, actual: 'no Allow' };
    const methods = parseAllow(field);
    if (methods === undefined) return { expected, actual: `Allow: ${field} (not a list of tokens)` };
    // Method names are case-sensitive (RFC 9110 §9.1).
    if (methods.includes(seen.method)) return { expected, actual: `Allow: ${field}` };
    return null;
  },
};

export const retryAfterJudge: Judge = {
  rule: observed429RetryAfter,
  kind: '429 answers with Retry-After',
  judge(seen) {
    const field = seen.headers['retry-after'];
    if (seen.status !== 429 || field === undefined) return undefined;
    return parseRetryAfter(field) === undefined
      ? { expected: 'Retry-After: delay-seconds or an HTTP-date', actual: `Retry-After: ${field}` }
      : null;
  },
};

/**
 * The judges run on every answer of the run, and thousands of fuzz answers carry a handful of distinct bodies:
 * the body's parse and its scan for stack frames are remembered per body (specs/lib/memo.ts), both pure.
 */
const jsonOf = memoized((text: string): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
});
const stackIn = memoized(stackTraceIn);

export const problemJudge: Judge = {
  rule: observedProblemStatus,
  kind: 'application/problem+json answers',
  judge(seen) {
    const type = seen.headers['content-type'] ?? '';
    if (!/^application\/problem\+json\b/i.test(type.trim()) || seen.truncated || carriesNoContent(seen))
      return undefined;
    const expected = `a JSON object with "status": ${seen.status} or no status member`;
    const parsed = jsonOf(seen.body);
    if (parsed === undefined) return { expected, actual: 'a body that is not JSON' };
    const body = parsed.value;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return { expected, actual: `${JSON.stringify(body)?.slice(0, 80)}` };
    const status = (body as { status?: unknown }).status;
    // RFC 9457 §3.1.2: generators MUST use the same status code in the actual HTTP response.
    return status === undefined || status === seen.status
      ? null
      : { expected, actual: `"status": ${JSON.stringify(status)} on a ${seen.status}` };
  },
};

export const stackJudge: Judge = {
  rule: observedNoStack,
  kind: 'answers with a body',
  judge(seen) {
    if (seen.body.length === 0 || carriesNoContent(seen)) return undefined;
    const hit = stackIn(seen.body);
    return hit === undefined
      ? null
      : { expected: 'a body without stack frames or source paths', actual: `a body matching ${String(hit)}` };
  },
};

/** Shorter credentials (`Basic a`) would match by chance. */
const MIN_ECHO_LENGTH = 8;

export const echoJudge: Judge = {
  rule: observedNoEcho,
  kind: 'answers to a request with a credential',
  judge(seen) {
    const credentials = seen.authorization
      .map((v) => v.trim().split(/\s+/).slice(1).join(' '))
      .filter((c) => c.length >= MIN_ECHO_LENGTH);
    if (credentials.length === 0) return undefined;
    for (const credential of credentials) {
      const where = seen.body.includes(credential)
        ? 'the body'
        : Object.entries(seen.headers).find(([, v]) => v.includes(credential))?.[0];
      if (where !== undefined)
        return {
          expected: 'no part of the answer repeating the credential',
          actual: `${where === 'the body' ? where : `the ${where} field`} repeats ${redactAuthorization(`x ${credential}`).slice(2)}`,
        };
    }
    return null;
  },
};

/**
 * observed.no-5xx: every 5xx to a request the suite sent is a fault, unless the profile declares it or RFC 9110
 * allows it (declared-5xx.ts). Seed §7: 500 is "an unexpected condition"; RFC 9110 §15.6: 5xx says the server
 * failed — and the suite sends only requests with an expected answer.
 */
export const no5xxJudge: Judge = {
  rule: observedNo5xx,
  // Every answer is of its kind: an answer that is not a 5xx is judged fine, so a run that provoked none passes
  // (issue #68: every answer judged) instead of skipping for want of a 5xx to look at.
  kind: 'answers',
  judge(seen, context) {
    if (seen.status < 500 || seen.status > 599) return null;
    const allowed = context.declared5xx?.({
      method: seen.method,
      path: pathnameOf(seen.url),
      status: seen.status,
      ...(seen.exchange ? { headerLines: seen.exchange.request.headerLines } : {}),
    });
    return allowed !== undefined
      ? null
      : {
          expected: `a 2xx or 4xx answer to a client request (5xx only for the profile's fault trigger)`,
          actual: `${seen.status} to ${seen.method} ${pathnameOf(seen.url)}`,
        };
  },
};

export const JUDGES: readonly Judge[] = [
  challengeJudge,
  bearerErrorJudge,
  allowJudge,
  retryAfterJudge,
  problemJudge,
  stackJudge,
  echoJudge,
  no5xxJudge,
];
