import fc from 'fast-check';
import { OWS_CHARS } from '../abnf.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';
import { separatingSpaces } from './separatingSpaces.ts';

/** A credential in its canonical spelling: `${scheme} ${credentials}`. */
export interface CanonicalCredential {
  readonly scheme: string;
  readonly credentials: string;
}

/**
 * Legal spellings of one valid credential, which a conforming target must treat exactly like the canonical
 * form: the scheme in any letter case (RFC 9110 §11.1 "case-insensitive token"), one or more spaces before
 * the credentials (RFC 9110 §11.4 `1*SP`), and whitespace around the field value, which RFC 9110 §5.5 says
 * is not part of it ("a field parsing implementation MUST exclude such whitespace").
 *
 *   Authorization = OWS credentials OWS        ; RFC 9110 §5.5 with §11.6.2
 *   credentials   = auth-scheme 1*SP token68   ; RFC 9110 §11.4
 *   OWS           = *( SP / HTAB )
 *
 * The credentials themselves stay byte for byte: re-encoding (unpadded base64, base64url) is not a legal
 * variant of Basic (RFC 7617 §2 names RFC 4648 §4 base64), and a JWT's bytes are what is signed.
 * Shrinks towards the canonical form.
 */
export function validCredentialVariant(canonical: CanonicalCredential): fc.Arbitrary<string> {
  const ows = fc.string({ unit: fc.constantFrom(...OWS_CHARS), maxLength: 3 });
  return fc
    .tuple(ows, schemeInAnyCase(canonical.scheme), separatingSpaces(), ows)
    .map(([lead, scheme, spaces, trail]) => `${lead}${scheme}${spaces}${canonical.credentials}${trail}`);
}
