/**
 * Any JSON value as an item (RFC 8259): a write body that is JSON but not what the server expects is the
 * client's mistake (seed §7 400: "The request is malformed or invalid"), never an unexpected condition of the
 * server (seed §7 500; RFC 9110 §15.6.1). A stack trace in any answer is judged by observed.no-stack, on
 * these answers as on every other one.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

const WRITE = ['endpoints.collection.writeSchemes', 'endpoints.collection.sampleItem'];

export const jsonValueNo5xx: Rule = {
  id: 'request.json-value.no-5xx',
  level: 'MUST',
  requirement:
    'A write whose body is any JSON value — an array, arrays and objects nested 1,000 deep, huge or fractional numbers, "__proto__" and "constructor" members, duplicate names, lone surrogates, a byte order mark, and the deepest nesting, longest array, longest string and most members that fit in the target\'s body limit (profile collection.maxBodyBytes, else 64 KiB) — is answered with 4xx or 2xx, never 5xx.',
  refs: [seed('7', '400'), seed('7', '500'), rfc(9110, '15.6.1'), rfc(8259, '2'), rfc(8259, '9')],
  statuses: [400, 422, 500],
  needs: WRITE,
  requires: ['writes'],
  impact: 'status',
  remedy:
    "Validate a write's body against its schema and answer 4xx to any value it cannot take; never let a parser or store error become a 5xx.",
};

/**
 * No sentence of the seed or its RFCs obliges a server to store an item verbatim, hence SHOULD; but a 200
 * says the write "completes successfully" (seed §4 rule 2), and RFC 8259 §9 lets a parser set limits —
 * a limit is a refusal, not a silent change: 1e400 stored as null, a "__proto__" member dropped.
 */
export const jsonValueStored: Rule = {
  id: 'request.json-value.stored',
  level: 'SHOULD',
  requirement:
    'A 2xx to such a write stores what was sent: read back, every member sent has the value sent (numbers as IEEE 754 doubles; of duplicate names the last or the first), so a value the server cannot keep is refused with 4xx, not changed. A target that drops every member its items do not declare (seen on a control write) is judged on the members it kept; the dropped ones are reported, not judged.',
  refs: [seed('4', 'rule 2'), rfc(8259, '9'), rfc(8259, '4'), rfc(8259, '6')],
  statuses: [200],
  needs: WRITE,
  requires: ['writes'],
  impact: 'status',
  remedy: 'Store what a 2xx write was sent, or refuse it with 4xx; never change a value silently.',
};

export const jsonValueRules: readonly Rule[] = [jsonValueNo5xx, jsonValueStored];
