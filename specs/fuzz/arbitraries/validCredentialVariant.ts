import fc from 'fast-check';
import { fieldValue } from '../../../shared/field-value.ts';
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

/**
 * Which legal respellings a value of validCredentialVariant carries, for the failing classes of its rule:
 * whitespace around the value, the scheme in another letter case, several spaces; `canonical` for none.
 */
export function respellingClass(canonical: CanonicalCredential, value: string): string {
  const features: string[] = [];
  if (/^[ \t]|[ \t]$/.test(value)) features.push('whitespace around the value');
  const inner = fieldValue(value);
  const space = inner.indexOf(' ');
  if (space !== -1 && inner.slice(0, space) !== canonical.scheme) features.push('scheme letter case');
  if (space !== -1 && inner.charAt(space + 1) === ' ') features.push('several spaces');
  return features.length === 0 ? 'canonical' : features.join(' + ');
}
