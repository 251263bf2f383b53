/** 500 for an unexpected condition (seed §7; RFC 9110 §15.6.1). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const serverError: Rule = {
  id: 'server.500.fault',
  level: 'MUST',
  requirement: "The profile's fault trigger is answered with 500.",
  refs: [seed('7', '500'), rfc(9110, '15.6.1')],
  statuses: [500],
  needs: ['fault'],
  requires: ['fault'],
  impact: 'status',
  remedy:
    'Answer an unexpected condition with 500 (problem+json), not 200 with an error inside or a dropped connection.',
};

/**
 * SHOULD: RFC 9457 §5, "… encouraged to avoid making implementation details such as a stack dump available" — no
 * BCP 14 keyword, SHOULD the project's reading (observed.ts).
 */
export const noStackTrace: Rule = {
  id: 'server.500.no-stack',
  level: 'SHOULD',
  requirement: 'A 500 body carries no stack trace, source path or exception dump.',
  refs: [rfc(9110, '15.6.1'), rfc(9457, '5')],
  statuses: [500],
  needs: ['fault'],
  requires: ['fault'],
  impact: 'leak',
  remedy:
    'Log the exception on the server; answer 500 with a generic problem+json body, no stack trace or source path.',
};

export const serverErrorRules: readonly Rule[] = [serverError, noStackTrace];
