/**
 * Base64 strictness of Basic credentials (RFC 7617 §2: the user-pass is encoded "into a sequence of
 * US-ASCII characters" with Base64 per RFC 4648 §4).
 *
 * Level MUST: RFC 4648 §3.3 says "Implementations MUST reject the encoded data if it contains characters
 * outside the base alphabet when interpreting base-encoded data, unless the specification referring to this
 * document explicitly states otherwise", and RFC 7617 states nothing otherwise. The URL-safe alphabet
 * (§5: "-" and "_") is outside the §4 alphabet. Excess pad characters: §3.3 lets only a referring
 * specification allow ignoring them, and RFC 7617 does not, so they are refused too. A *missing* pad is not
 * judged: §3.2's "MUST include appropriate pad characters" binds the encoder (the client), and no clause
 * requires a decoder to refuse unpadded data.
 */
import { rfc } from './refs.ts';
import type { Rule } from './types.ts';

export const basicBase64Strict: Rule = {
  id: 'basic.base64.strict',
  level: 'MUST',
  requirement:
    'A valid Basic credential with characters outside the base64 alphabet mixed in, excess padding, or in the URL-safe alphabet is refused (400 or 401).',
  refs: [rfc(7617, '2'), rfc(4648, '3.3'), rfc(4648, '3.2'), rfc(4648, '4')],
  statuses: [400, 401],
  needs: ['identities.admin.basic', 'endpoints.*.schemes (basic)'],
};

export const basicBase64Rules: readonly Rule[] = [basicBase64Strict];
