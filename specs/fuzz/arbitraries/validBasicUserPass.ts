import fc from 'fast-check';

/**
 * A Basic user-id and password: the user-id without ":", the password free to hold ":" (only the first
 * colon splits), both in UTF-8 with non-ASCII letters, neither with a control character.
 *
 * RFC 7617 §2 (and §2.1 charset="UTF-8"):
 *
 *   user-pass = user-id ":" password
 *   user-id   = *<TEXT excluding ":">
 *   password  = *TEXT
 *
 * "The user-id and password MUST NOT contain any control characters" (C0, DEL; C1 too, as RFC 8265's
 * profiles exclude them). Shrinks towards empty user-id and password.
 */
export function validBasicUserPass(): fc.Arbitrary<{ readonly userId: string; readonly password: string }> {
  // Printable ASCII, then Latin-1 letters, Greek, CJK and an astral emoji: UTF-8 of 1 to 4 octets.
  const text = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 16 }) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.constantFrom('ä', 'ö', 'ß', 'é', 'Ω', 'λ', '中', '文', '😀', ' ', ':', 'a'),
        maxLength: 8,
      }),
    },
  );
  return fc
    .record({ userId: text, password: text })
    .map(({ userId, password }) => ({ userId: userId.replaceAll(':', '.'), password }));
}
