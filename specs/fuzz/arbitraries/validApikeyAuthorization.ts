import fc from 'fast-check';
import { type ApikeyForm, apikeyAuthorization } from '../../profile/apikey-scheme.ts';
import { CANONICAL_SCHEME_NAME } from '../../profile/credential-maker.ts';
import { schemeInAnyCase } from './schemeInAnyCase.ts';
import { separatingSpaces } from './separatingSpaces.ts';
import { validToken68 } from './validToken68.ts';

/**
 * A well-formed Apikey Authorization value with a key nobody issued: the target must answer 401.
 *
 * Seed §5 `Authorization: Apikey <key>`, the key taken as token68 (RFC 9110 §11.4, §11.2):
 *
 *   credentials = "Apikey" 1*SP token68
 *
 * `form`: the target's own (profile apikeyScheme): its word in any case instead of "Apikey", the key as the
 * quoted value of its parameter (`MediaBrowser Token="<key>"`), or the key alone.
 */
export function validApikeyAuthorization(form?: ApikeyForm): fc.Arbitrary<string> {
  const key = validToken68({ minLength: 8, maxLength: 48 });
  if (form !== undefined && form.word === undefined) return key;
  if (form?.param !== undefined)
    return fc
      .tuple(schemeInAnyCase(form.word ?? ''), key)
      .map(([word, k]) => apikeyAuthorization(form, k, word));
  return fc
    .tuple(schemeInAnyCase(form?.word ?? CANONICAL_SCHEME_NAME.apikey), separatingSpaces(), key)
    .map(([scheme, spaces, k]) => `${scheme}${spaces}${k}`);
}
