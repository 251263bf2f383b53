/**
 * 400 for a malformed request body (seed §7 400: "The request is malformed or invalid. The server cannot
 * process it."; RFC 9110 §15.5.1), or the more precise 413 (§15.5.14) and 415 (§15.5.16) — never a success,
 * never a server error. Each is a write the writer may make, with only the body broken.
 *
 * A stack trace in these answers is judged where every answer's is, by observed.no-stack (specs/rules/
 * observed.ts), at SHOULD (RFC 9457 §5 "encouraged to avoid", no BCP 14 keyword: the project's reading): these
 * rules' MUST is about the status.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

const WRITE = ['endpoints.collection.writeSchemes', 'endpoints.collection.sampleItem'];

export const bodyNotJson: Rule = {
  id: 'request.400.body-not-json',
  level: 'MUST',
  requirement:
    'A write whose body, declared application/json, is not JSON is answered with 400, never 2xx or 5xx.',
  refs: [seed('7', '400'), rfc(9110, '15.5.1'), rfc(8259, '2')],
  statuses: [400],
  needs: WRITE,
  requires: ['writes'],
  impact: 'status',
  remedy:
    'Parse the body before acting and answer 400 (problem+json) when a body declared application/json is not JSON.',
};

export const bodyWrongType: Rule = {
  id: 'request.400.body-wrong-type',
  level: 'MUST',
  requirement:
    'A write whose JSON body is of the wrong top-level type (a string, a number, null where an object is taken) is answered with 400 (or 422), never 2xx or 5xx.',
  refs: [seed('7', '400'), rfc(9110, '15.5.1'), rfc(9110, '15.5.21')],
  statuses: [400, 422],
  needs: WRITE,
  requires: ['writes'],
  impact: 'status',
  remedy:
    "Validate the body's top-level type and answer 400 or 422 when it is not the object the write takes.",
};

export const contentTypeMismatch: Rule = {
  id: 'request.400.content-type-mismatch',
  level: 'SHOULD',
  requirement:
    'A write whose JSON body is declared as text/plain is answered with 415 (or 400), never 2xx or 5xx.',
  refs: [seed('7', '400'), rfc(9110, '15.5.16'), rfc(9110, '8.3')],
  statuses: [400, 415],
  needs: WRITE,
  requires: ['writes'],
  impact: 'status',
  remedy: 'Answer 415 (or 400) to a write whose Content-Type is not one the operation takes.',
};

export const oversizedBody: Rule = {
  id: 'request.400.oversized-body',
  level: 'MUST',
  requirement:
    'A write whose body exceeds the size the profile declares the target takes is answered with 413 (or 400), never 2xx or 5xx.',
  refs: [seed('7', '400'), rfc(9110, '15.5.14'), rfc(9110, '15.5.1')],
  statuses: [400, 413],
  needs: [...WRITE, 'endpoints.collection.maxBodyBytes'],
  requires: ['writes'],
  impact: 'status',
  remedy: 'Enforce the body limit while reading and answer 413 (or 400) past it.',
};

export const requestBodyRules: readonly Rule[] = [
  bodyNotJson,
  bodyWrongType,
  contentTypeMismatch,
  oversizedBody,
];
