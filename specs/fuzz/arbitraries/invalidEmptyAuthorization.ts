import fc from 'fast-check';
import { OWS_CHARS } from '../abnf.ts';

/**
 * An Authorization field with an empty value, or whitespace only (which RFC 9110 §5.5 reduces to empty).
 *
 * RFC 9110 §11.6.2 and §11.4: `Authorization = credentials`, `credentials = auth-scheme [ … ]`, and
 * `auth-scheme = token = 1*tchar` needs at least one character; the empty value matches nothing.
 */
export function invalidEmptyAuthorization(): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...OWS_CHARS), maxLength: 4 });
}
