/** Malformed credentials: 400 or 401, never success and never a server error (RFC 9110 §15.5.1, §11.6.2). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const malformedStatus: Rule = {
  id: 'auth.malformed.status',
  level: 'MUST',
  requirement:
    'A malformed Authorization value (scheme only, not token68, bad base64, no colon) is answered with 400 or 401, never 2xx or 5xx.',
  refs: [seed('7', '400'), rfc(9110, '15.5.1'), rfc(9110, '11.6.2'), rfc(6750, '3.1'), rfc(7617, '2')],
  statuses: [400, 401],
  needs: ['endpoints.protected'],
  impact: 'status',
  remedy:
    'Answer a malformed Authorization value with 400 or 401, never with the resource or a 5xx: parse before you look up.',
};

/**
 * SHOULD, not MUST: RFC 9110 §5.3 binds senders ("A sender MUST NOT generate multiple field lines with the
 * same name … unless" the field is a list), and no RFC obliges a recipient to refuse a second Authorization
 * line — servers built on Node keep the first and answer 200. Two credentials are an ambiguity worth warning
 * about, not a conformance failure.
 */
export const duplicateAuthorization: Rule = {
  id: 'auth.malformed.duplicate-header',
  level: 'SHOULD',
  requirement: 'A request with two Authorization field lines is answered with 400 or 401, never 2xx or 5xx.',
  refs: [rfc(9110, '5.3'), rfc(9110, '15.5.1'), rfc(9110, '11.6.2')],
  statuses: [400, 401],
  needs: ['endpoints.protected', 'identities.admin'],
  impact: 'status',
  remedy: 'Refuse a request with two Authorization field lines (400 or 401) instead of picking one.',
};

export const malformedRules: readonly Rule[] = [malformedStatus, duplicateAuthorization];
