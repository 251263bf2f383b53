/**
 * Observer rules: header and body requirements judged on every response of their kind the run receives —
 * conformance checks, fuzz cases, JWT attacks, rate-limit probes — not on one designated request
 * (specs/observe/). A rule fails once, with the first offending request and how many responses showed the
 * fault; it is skipped, saying so, when the run saw no response of its kind.
 */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

export const observed401Challenge: Rule = {
  id: 'observed.401.challenge',
  level: 'MUST',
  requirement:
    'Every 401 carries a parseable WWW-Authenticate with at least one scheme the endpoint accepts; every realm is a quoted-string; every Basic challenge has a realm and no charset but "UTF-8".',
  refs: [rfc(9110, '11.6.1'), rfc(9110, '15.5.2'), rfc(9110, '11.5'), rfc(7617, '2'), rfc(7617, '2.1')],
  statuses: [401],
  impact: 'status',
  remedy:
    'Send a parseable WWW-Authenticate with a scheme the path takes on every 401; quote realms; give Basic a realm.',
};

export const observedBearerError: Rule = {
  id: 'observed.bearer.error-code',
  level: 'SHOULD',
  requirement:
    'Every Bearer challenge with an error code uses invalid_request, invalid_token or insufficient_scope with 400, 401 or 403 respectively.',
  refs: [rfc(6750, '3.1'), rfc(6750, '3')],
  statuses: [400, 401, 403],
  requires: ['bearer'],
  impact: 'status',
  remedy:
    'Pair each Bearer error code with its status: invalid_request 400, invalid_token 401, insufficient_scope 403.',
};

export const observed405Allow: Rule = {
  id: 'observed.405.allow',
  level: 'MUST',
  requirement:
    'Every 405 carries an Allow field, a list of method tokens, that does not list the refused method.',
  refs: [rfc(9110, '15.5.6'), rfc(9110, '10.2.1')],
  statuses: [405],
  impact: 'status',
  remedy: 'Send an Allow field on every 405 that does not list the refused method.',
};

export const observed429RetryAfter: Rule = {
  id: 'observed.429.retry-after',
  level: 'MUST',
  requirement: 'Every Retry-After on a 429 is delay-seconds or an HTTP-date.',
  refs: [rfc(9110, '10.2.3'), rfc(6585, '4')],
  statuses: [429],
  impact: 'status',
  remedy: 'Send Retry-After on a 429 as delay-seconds or an HTTP-date.',
};

/**
 * MUST, the level of problem.status-matches and of the sentence both cite: RFC 9457 §3.1.2 "Generators MUST
 * use the same status code in the actual HTTP response" (specs/rules/problem.ts).
 */
export const observedProblemStatus: Rule = {
  id: 'observed.problem.status',
  level: 'MUST',
  requirement:
    'Every application/problem+json body is a JSON object whose "status", when present, equals the HTTP status.',
  refs: [rfc(9457, '3.1.2'), rfc(9457, '3')],
  statuses: [400, 401, 403, 404, 405, 429, 500],
  impact: 'status',
  remedy: "Set every problem+json body's status member from the answer's own status.",
};

/**
 * SHOULD, following RFC 9457 §5: "Generators providing links to occurrence information are encouraged to avoid
 * making implementation details such as a stack dump available through the HTTP interface" — a recommendation
 * with no BCP 14 keyword, so never a MUST; SHOULD is the project's reading of "encouraged". The one judge of stack traces in every answer (400s of malformed bodies included), at
 * the same level as server.500.no-stack; no MUST rule checks for one.
 */
export const observedNoStack: Rule = {
  id: 'observed.no-stack',
  level: 'SHOULD',
  requirement: 'No answer body carries a stack trace, source path or exception dump.',
  refs: [rfc(9457, '5'), rfc(9110, '15.6.1')],
  statuses: [400, 401, 403, 404, 405, 429, 500],
  impact: 'leak',
  remedy: 'Never put a stack trace, source path or exception dump in an answer; log it on the server.',
};

/**
 * A SHOULD: no RFC forbids echoing a credential in so many words, but RFC 6750 §5.1 requires that tokens be
 * kept from disclosure and RFC 7617 §4 treats the Basic user-pass as a cleartext secret; an answer that
 * repeats the credential hands it to every log and cache on the way.
 */
export const observedNoEcho: Rule = {
  id: 'observed.no-credential-echo',
  level: 'SHOULD',
  requirement: 'No answer repeats, in a header field or its body, the credential of the request.',
  refs: [rfc(6750, '5.1'), rfc(7617, '4')],
  statuses: [200, 400, 401, 403, 404, 405, 429, 500],
  impact: 'leak',
  remedy:
    "Never repeat the request's credential in an answer's header fields or body, not even in an error message.",
};

export const observedRules: readonly Rule[] = [
  observed401Challenge,
  observedBearerError,
  observed405Allow,
  observed429RetryAfter,
  observedProblemStatus,
  observedNoStack,
  observedNoEcho,
];
