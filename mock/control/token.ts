/**
 * The control API's bearer token: configured, or generated at start-up (printed in the CLI banner). Compared
 * in constant time over SHA-256 digests, so neither the content nor the length leaks through timing.
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 144 random bits, base64url (RFC 4648 §5): a valid token68, easy to paste into a shell. */
export function generateControlToken(): string {
  return randomBytes(18).toString('base64url');
}

export function tokenChecker(
  token: string,
): (authorization: string | undefined) => 'ok' | 'missing' | 'wrong' {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    if (authorization === undefined) return 'missing';
    // RFC 9110 §11.1: the scheme name is case-insensitive; RFC 6750 §2.1: "Bearer" 1*SP b64token.
    const match = /^bearer +(\S+) *$/i.exec(authorization);
    if (match === null) return 'wrong';
    const given = createHash('sha256')
      .update(match[1] as string)
      .digest();
    return timingSafeEqual(given, expected) ? 'ok' : 'wrong';
  };
}
