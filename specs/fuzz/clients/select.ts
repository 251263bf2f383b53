/**
 * Which client carries a case (docs/fuzzing.md "Clients"): node:http whenever it can send the exact octets,
 * the raw socket otherwise. Each client's `canSend` says what it can send; this is node:http's rule.
 */
import type { FuzzRequest } from '../request.ts';

export type Transport = 'http' | 'raw';

// node:http sends HTAB, SP, visible ASCII and obs-text as they are (it refuses CR, LF, NUL and other CTLs).
const HTTP_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The raw socket for any control octet but HTAB; node:http for everything else. */
export function transportFor(request: Pick<FuzzRequest, 'authorization'>): Transport {
  return request.authorization.every((value) => HTTP_SAFE.test(value)) ? 'http' : 'raw';
}
