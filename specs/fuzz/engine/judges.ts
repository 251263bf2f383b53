/**
 * The verdicts the fuzz rules apply to each answer (specs/rules/fuzz.ts, jwt-attacks.ts). Each returns
 * `pass`, `fail` with what the rule allows, or — for a status that carries no information about the rule —
 * leaves the call to the engine's rate-limit handling (property.ts).
 */
import { challengesIn, param } from '../../lib/www-authenticate.ts';
import type { Outcome } from '../clients/types.ts';
import type { FuzzRequest } from '../request.ts';
import { describeOutcome, failed, type Judge, PASS, type Verdict } from './verdict.ts';

const isSuccess = (o: Outcome): boolean => o.kind === 'response' && o.status >= 200 && o.status < 300;

/** Never 2xx (a dropped connection is fuzz.no-5xx's business, not this rule's). */
export const notSuccess: Judge = (_request, outcome) =>
  isSuccess(outcome) ? failed('any status but 2xx: these credentials are not valid') : PASS;

/** An HTTP answer below 500. */
export const noServerError: Judge = (_request, outcome) => {
  if (outcome.kind === 'dropped')
    return failed('an HTTP response (a 4xx for bad input)', `no response: ${outcome.error}`);
  return outcome.status >= 500 ? failed("a status below 500 (the input is the client's fault)") : PASS;
};

/** One of `allowed`; `overlong` kinds may also get 431 (RFC 6585 §5). */
export function statusIn(
  allowed: readonly number[],
  extraFor: Readonly<Record<string, readonly number[]>> = {},
): Judge {
  return (request, outcome) => {
    const ok = [...allowed, ...(extraFor[request.kind] ?? [])];
    if (outcome.kind === 'response' && ok.includes(outcome.status)) return PASS;
    return failed(`status ${ok.join(' or ')}`, describeOutcome(outcome));
  };
}

/** RFC 9110 §11.6.1: a 401 MUST carry WWW-Authenticate with at least one challenge. */
export const challengeOn401: Judge = (_request, outcome) => {
  if (outcome.kind !== 'response' || outcome.status !== 401) return PASS;
  const value = outcome.headers['www-authenticate'];
  if (value === undefined) return failed('a WWW-Authenticate field on the 401', 'no WWW-Authenticate field');
  const challenges = challengesIn(value);
  if (challenges === undefined)
    return failed(
      'WWW-Authenticate that parses as 1#challenge (RFC 9110 §11.6.1)',
      `unparseable: ${JSON.stringify(value)}`,
    );
  if (challenges.length === 0)
    return failed('at least one challenge in WWW-Authenticate', `empty: ${JSON.stringify(value)}`);
  return PASS;
};

/** RFC 6750 §3.1: the three error codes and the status each goes with. */
const BEARER_ERRORS: Readonly<Record<string, number>> = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
};

export const bearerErrorCode: Judge = (_request, outcome) => {
  if (outcome.kind !== 'response') return PASS;
  const value = outcome.headers['www-authenticate'];
  const challenges = value === undefined ? undefined : challengesIn(value);
  // Presence and syntax are fuzz.401.challenge's business.
  for (const challenge of challenges ?? []) {
    if (challenge.schemeLower !== 'bearer') continue;
    const error = param(challenge, 'error');
    if (error === undefined) continue;
    const status = BEARER_ERRORS[error];
    if (status === undefined) {
      return failed(
        'Bearer error invalid_request, invalid_token or insufficient_scope (RFC 6750 §3.1)',
        `error="${error}"`,
      );
    }
    if (status !== outcome.status) {
      return failed(
        `status ${status} with error="${error}" (RFC 6750 §3.1)`,
        `status ${outcome.status} with error="${error}"`,
      );
    }
  }
  return PASS;
};

/** The status the canonical credential got, per request kind (legal variants). */
export function sameStatusAs(canonical: Readonly<Record<string, number>>): Judge {
  return (request: FuzzRequest, outcome: Outcome): Verdict => {
    const expected = canonical[request.kind];
    if (expected === undefined) throw new TypeError(`no canonical status for ${request.kind}`);
    if (outcome.kind === 'response' && outcome.status === expected) return PASS;
    return failed(`status ${expected}, as for the canonical spelling`, describeOutcome(outcome));
  };
}
