import fc from 'fast-check';
import { CTL, KNOWN_SCHEMES, OBS_TEXT, TOKEN68_CHARS } from '../abnf.ts';

/**
 * Authorization values holding octets an ordinary HTTP client refuses to send: bare CR, bare LF, CRLF
 * followed by a header-like line or by a space (obs-fold), NUL and the other controls, and obs-text
 * (%x80-FF, including the UTF-8 octets of non-ASCII text). A byte string: one character per octet; the
 * raw-socket client puts it on the wire as is.
 *
 * RFC 9110 §5.5 and RFC 9112 §2.2, §5.2:
 *
 *   field-value = *field-content
 *   field-vchar = VCHAR / obs-text                 ; no CTL except HTAB inside
 *   "A recipient of such a bare CR MUST consider that element to be invalid or replace each bare CR with
 *    SP"; a server MUST reject obs-fold with 400 or replace it with SP.
 *
 * Whatever a target makes of these octets, no reading yields a credential (obs-text and controls are
 * outside token68), so the answer must be a client error and never a 5xx or a dropped connection.
 * Shrinks towards `Bearer A` + one injected octet + `A`.
 */
export function invalidRawHeaderBytes(): fc.Arbitrary<string> {
  const token = fc.string({ unit: fc.constantFrom(...TOKEN68_CHARS), minLength: 1, maxLength: 16 });
  const controls = [...CTL].filter((c) => c !== '\t');
  const injected = fc.oneof(
    fc.constantFrom('\r', '\n', '\0', '\r\n X', '\r\nX-Injected: 1', '\n\r'),
    fc.string({ unit: fc.constantFrom(...controls), minLength: 1, maxLength: 3 }),
    fc.string({ unit: fc.constantFrom(...OBS_TEXT), minLength: 1, maxLength: 4 }),
    // Non-ASCII text as its UTF-8 octets, the way a careless client would send it.
    fc.constantFrom('é', 'ü', '€', '中', '😀').map((text) => Buffer.from(text, 'utf8').toString('latin1')),
  );
  return fc
    .record({
      scheme: fc.constantFrom(...KNOWN_SCHEMES),
      inScheme: fc.boolean(),
      prefix: token,
      bytes: injected,
      suffix: token,
    })
    .map(({ scheme, inScheme, prefix, bytes, suffix }) =>
      inScheme
        ? `${scheme.slice(0, 3)}${bytes}${scheme.slice(3)} ${prefix}${suffix}`
        : `${scheme} ${prefix}${bytes}${suffix}`,
    );
}
