/**
 * Stage 4, credentials (400/401). Public rules skip it entirely (an Authorization header there is ignored).
 * The Authorization field lines are taken from `rawHeaders`: Node keeps only the first of duplicate
 * Authorization headers in `req.headers`, and a duplicate is malformed (docs/design.md "Status choices").
 */

import type { Authenticator, AuthFailureCode, AuthResult, Scheme } from '../auth/types.ts';
import { type BearerError, challenge } from '../http/challenge.ts';
import { problem } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import type { AccessRule } from '../routing/router.ts';
import { type Exchange, missing, type Stage, type StageResult } from './exchange.ts';

export function credentialsStage(authenticator: Authenticator, realm: string): Stage {
  const refusals = refusalCache(realm);
  const decide = (exchange: Exchange, rule: AccessRule, result: AuthResult): StageResult => {
    if (result.ok) {
      exchange.identity = result.identity;
      return undefined;
    }
    // For the journal: the code and reason of mock/auth, which never contain the credential.
    exchange.outcome = result.code;
    exchange.outcomeReason = result.reason;
    return refusals(result, rule);
  };
  // An async function rather than a `.then` callback: no closure made per request.
  const decideLater = async (
    exchange: Exchange,
    rule: AccessRule,
    pending: Promise<AuthResult>,
  ): Promise<StageResult> => decide(exchange, rule, await pending);
  return (exchange) => {
    const rule = exchange.rule ?? missing('rule');
    if (rule.public) return undefined;
    // The connection lets the authenticator skip re-parsing and re-hashing a value it sent before.
    const result = authenticator.authenticate(
      authorizationValues(exchange.req.rawHeaders),
      rule.schemes,
      exchange.now,
      exchange.req.socket ?? undefined,
    );
    // Answered at once when nothing had to be verified (mock/auth/types.ts): the stage stays synchronous.
    return result instanceof Promise ? decideLater(exchange, rule, result) : decide(exchange, rule, result);
  };
}

/**
 * The refusal for a failure on a rule, built once per (rule, failure) and reused: the authenticator's fixed
 * failures (no credentials, malformed, unknown API key, …) are module-level constants, so the 400 and 401
 * answers a client gets again and again are serialised once. Keyed weakly by the failure object, so a
 * failure made for one request (a reason naming seconds, say) is dropped with it; the reply depends on nothing
 * else (rule and realm are fixed, the body carries no per-request member).
 */
export function refusalCache(realm: string): (failure: Failure, rule: AccessRule) => Reply {
  const byRule = new Map<AccessRule, WeakMap<Failure, Reply>>();
  return (failure, rule) => {
    let replies = byRule.get(rule);
    if (replies === undefined) {
      replies = new WeakMap();
      byRule.set(rule, replies);
    }
    let reply = replies.get(failure);
    if (reply === undefined) {
      reply = refusal(failure, rule, realm);
      replies.set(failure, reply);
    }
    return reply;
  };
}

/** Every Authorization field line, in order (`rawHeaders` is [name, value, name, value, …]). */
export function authorizationValues(rawHeaders: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 13 && name.toLowerCase() === 'authorization')
      values.push(rawHeaders[i + 1] as string);
  }
  return values;
}

type Failure = Extract<AuthResult, { ok: false }>;

/** No credentials, or a scheme the route does not take: plain challenges (RFC 6750 §3.1: no error code). */
const UNAUTHENTICATED: ReadonlySet<AuthFailureCode> = new Set(['missing', 'scheme_not_accepted']);

/**
 * 400 (malformed) → `error="invalid_request"`; 401 for credentials that failed → `error="invalid_token"`
 * (RFC 6750 §3.1); 401 without credentials → the plain challenges. One challenge per accepted scheme either
 * way (RFC 9110 §11.6.1). The error goes on the challenge of the scheme the client tried, or on the Bearer
 * and Apikey challenges when the scheme is unknown or not accepted here (Basic has no error parameter).
 */
export function refusal(failure: Failure, rule: AccessRule, realm: string): Reply {
  const extensions = { code: failure.code };
  if (failure.status === 401 && UNAUTHENTICATED.has(failure.code)) {
    return problem(
      'authentication-required',
      failure.reason,
      { 'www-authenticate': rule.challenges as string[] },
      extensions,
    );
  }
  const error: BearerError = failure.status === 400 ? 'invalid_request' : 'invalid_token';
  const tried: Scheme | undefined =
    failure.scheme !== undefined && rule.schemes.includes(failure.scheme) ? failure.scheme : undefined;
  const challenges = rule.schemes.map((scheme) =>
    (tried === undefined ? scheme !== 'basic' : scheme === tried)
      ? challenge(scheme, realm, { error, description: failure.reason })
      : challenge(scheme, realm),
  );
  return problem(
    failure.status === 400 ? 'invalid-request' : 'invalid-credentials',
    failure.reason,
    { 'www-authenticate': challenges },
    extensions,
  );
}
