/**
 * Base64 of Basic credentials (RFC 7617 §2: the user-pass is encoded "into a sequence of US-ASCII
 * characters" with Base64 per RFC 4648 §4). RFC 4648 §3.3 treats the cases a decoder meets differently, so
 * each is a rule of its own, at the level of its sentence:
 *
 * - Characters outside the alphabet — MUST: "Implementations MUST reject the encoded data if it contains
 *   characters outside the base alphabet when interpreting base-encoded data, unless the specification
 *   referring to this document explicitly states otherwise", and RFC 7617 states nothing otherwise. The
 *   URL-safe alphabet's "-" and "_" (§5) are outside the §4 alphabet. The probes that matter are the characters
 *   inside `token68` (RFC 9110 §11.2) and outside base64 — "-", ".", "_", "~" — at every position: a server
 *   that checks the token68 shape and then decodes leniently passes "!" and "*" (the shape check refuses
 *   them) and is caught only by these.
 * - Excess pad characters — the target's choice: "If more than the allowed number of pad characters is found
 *   at the end of the string (e.g., a base 64 string terminated with "==="), the excess pad characters MAY
 *   also be ignored." Ignoring them (the credential accepted) and refusing them are both allowed, so the rule
 *   only reports which the target does (nginx, for one, ignores them and refuses a stray "!").
 *
 * A *missing* pad is not judged: §3.2's "MUST include appropriate pad characters" binds the encoder (the
 * client), and no clause requires a decoder to refuse unpadded data.
 */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

const NEEDS = ['identities.admin.basic', 'endpoints.*.schemes (basic)'];

export const basicBase64Strict: Rule = {
  id: 'basic.base64.strict',
  level: 'MUST',
  requirement:
    'A valid Basic credential with characters outside the base64 alphabet mixed in ("!", "*"; and "-", ".", "_", "~", which token68 allows, inserted at every position of the encoded data up to its pad), or in the URL-safe alphabet ("-", "_"), is refused (400 or 401).',
  refs: [rfc(7617, '2'), rfc(4648, '3.3'), rfc(4648, '4')],
  statuses: [400, 401],
  needs: NEEDS,
  requires: ['basic'],
  impact: 'access',
  remedy:
    'Decode Basic credentials with a strict base64 decoder (RFC 4648 §4 alphabet, no skipped characters) and refuse what does not decode.',
};

export const basicBase64ExcessPadding: Rule = {
  id: 'basic.base64.excess-padding',
  level: 'INFO',
  requirement:
    'Reports whether a valid Basic credential with excess pad characters is accepted (the pad ignored) or refused; RFC 4648 §3.3 allows either.',
  refs: [rfc(4648, '3.3'), rfc(7617, '2')],
  statuses: [200, 400, 401],
  needs: NEEDS,
  requires: ['basic'],
  impact: 'status',
  remedy: 'Either answer is allowed (RFC 4648 §3.3); a strict decoder refuses excess padding.',
};

export const basicBase64Rules: readonly Rule[] = [basicBase64Strict, basicBase64ExcessPadding];
