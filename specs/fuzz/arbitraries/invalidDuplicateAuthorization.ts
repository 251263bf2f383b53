import fc from 'fast-check';

/**
 * Two Authorization field lines in one request, each carrying a credential from `credential`.
 *
 * RFC 9110 §5.3: "A sender MUST NOT generate multiple field lines with the same name in a message …
 * unless … that field's definition allows multiple field line values to be recombined as a
 * comma-separated list" — and Authorization (§11.6.2, `Authorization = credentials`) is not a list.
 * The suite accepts 400 or 401 for it (docs/design.md "The suite's rules").
 *
 * Shrinks each line with `credential`'s own shrinker.
 */
export function invalidDuplicateAuthorization(
  credential: fc.Arbitrary<string>,
): fc.Arbitrary<readonly [string, string]> {
  return fc.tuple(credential, credential);
}
