/**
 * Stage 4 for a document the mock stands in for (400/401): the operation's alternatives (access.ts) checked
 * against what the request presents (verify.ts). The first alternative whose every scheme is proven by one
 * identity wins — one whose names that identity holds, else the first proven (the authorization stage then
 * answers 403, `insufficient_scope` for Bearer, RFC 6750 §3.1). None proven: 400 for a malformed credential;
 * 401 with `invalid_token` on the tried scheme's challenge for one that failed; else 401 with one challenge
 * per accepted scheme and no error code (RFC 9110 §11.6.1, RFC 6750 §3.1).
 */
import type { Identity } from '../auth/types.ts';
import { inAscii, quote } from '../http/challenge.ts';
import { problem } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import { authorizationValues } from '../pipeline/credentials.ts';
import { type Exchange, missing, type Stage, type StageResult } from '../pipeline/exchange.ts';
import type { DocumentRule } from './access.ts';
import type { DocumentScheme } from './schemes.ts';
import type { DocumentVerifier, Presented, SchemeCheck } from './verify.ts';

type Refused = Extract<SchemeCheck, { kind: 'refused' }>;

/** The challenge with RFC 6750 §3's error parameters; Basic has none (RFC 7617). */
function withError(scheme: DocumentScheme, error: string, reason: string): string | undefined {
  if (scheme.challenge === undefined || scheme.kind === 'basic') return scheme.challenge;
  return `${scheme.challenge}, error="${error}", error_description=${quote(inAscii(reason))}`;
}

function refusal(rule: DocumentRule, tried: DocumentScheme | undefined, failure: Refused | undefined): Reply {
  if (failure === undefined || tried === undefined)
    return problem(
      'authentication-required',
      'authentication is required: send one of the credentials the challenges name',
      { 'www-authenticate': [...rule.challenges] },
      { code: 'missing' },
    );
  const error = failure.status === 400 ? 'invalid_request' : 'invalid_token';
  const challenges = rule.checked
    .map((s) => (s === tried ? withError(s, error, failure.reason) : s.challenge))
    .filter((c): c is string => c !== undefined);
  return problem(
    failure.status === 400 ? 'invalid-request' : 'invalid-credentials',
    failure.reason,
    { 'www-authenticate': [...new Set(challenges)] },
    { code: failure.code },
  );
}

function decide(exchange: Exchange, rule: DocumentRule, checks: readonly SchemeCheck[]): StageResult {
  const of = (s: DocumentScheme) => checks[rule.checked.indexOf(s)] as SchemeCheck;
  let proven: { identity: Identity; rule: DocumentRule['alternatives'][number]['rule'] } | undefined;
  for (const alternative of rule.alternatives) {
    const results = alternative.schemes.map(of);
    const first = results[0];
    if (first?.kind !== 'ok') continue;
    // All at once, and by one identity: two schemes proving two identities prove neither.
    if (!results.every((r) => r.kind === 'ok' && r.identity.id === first.identity.id)) continue;
    const holds = alternative.needs.every((n) => first.identity.scopes.includes(n));
    if (holds || proven === undefined) proven = { identity: first.identity, rule: alternative.rule };
    if (holds) break;
  }
  if (proven !== undefined) {
    exchange.identity = proven.identity;
    exchange.rule = proven.rule;
    return undefined;
  }
  const index = checks.findIndex((c) => c.kind === 'refused');
  const failure = index === -1 ? undefined : (checks[index] as Refused);
  exchange.outcome = failure?.code ?? 'missing';
  exchange.outcomeReason = failure?.reason ?? 'no credential the operation accepts';
  return refusal(rule, rule.checked[index], failure);
}

export function standInCredentials(verifier: DocumentVerifier): Stage {
  const later = async (
    exchange: Exchange,
    rule: DocumentRule,
    pending: (SchemeCheck | Promise<SchemeCheck>)[],
  ) => decide(exchange, rule, await Promise.all(pending));
  return (exchange) => {
    const rule = (exchange.rule ?? missing('rule')) as DocumentRule;
    if (rule.public) return undefined;
    const presented: Presented = {
      req: exchange.req,
      authorization: authorizationValues(exchange.req.rawHeaders),
      query: exchange.query,
      now: exchange.now,
    };
    const checks = rule.checked.map((s) => verifier.check(s, presented));
    return checks.some((c) => c instanceof Promise)
      ? later(exchange, rule, checks)
      : decide(exchange, rule, checks as SchemeCheck[]);
  };
}
