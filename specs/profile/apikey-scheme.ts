/**
 * How a key is sent in Authorization (the profile's `apikeyScheme`, docs/profile.md): the seed's form
 * `Apikey <key>` (§5) by default, or the target's own — credentials = auth-scheme [ 1*SP ( token68 /
 * #auth-param ) ] (RFC 9110 §11.4):
 * - a word: `Token <key>`, `SSWS <key>`;
 * - a word and a parameter name: `MediaBrowser Token` → `MediaBrowser Token="<key>"` (an auth-param whose
 *   value is a quoted-string, RFC 9110 §5.6.4);
 * - a word and a parameter name ending in `=`: `Token token=` → `Token token=<key>` (the auth-param's value
 *   a bare token, RFC 9110 §11.2: auth-param = token BWS "=" BWS ( token / quoted-string ));
 * - the empty string: the whole field value is the key.
 */
import type { Profile } from './types.ts';

export const DEFAULT_APIKEY_SCHEME = 'Apikey';

export interface ApikeyForm {
  /** The auth-scheme word; undefined when the field value is the key alone. */
  readonly word: string | undefined;
  /** The auth-param name the key is the value of, in the parameter form. */
  readonly param: string | undefined;
  /** The parameter form: the key sent as a quoted-string (true) or as written, a bare token (false). */
  readonly quoted: boolean;
}

export function apikeyForm(profile: Pick<Profile, 'apikeyScheme'>): ApikeyForm {
  const [word, written] = (profile.apikeyScheme ?? DEFAULT_APIKEY_SCHEME).split(' ');
  const param = written?.replace(/=$/, '');
  return { word: word === '' ? undefined : word, param, quoted: written === param };
}

/** The Authorization field value that carries `key` in `form`; `word` respells the scheme (any case). */
export function apikeyAuthorization(form: ApikeyForm, key: string, word = form.word): string {
  if (word === undefined) return key;
  // RFC 9110 §5.6.4: in a quoted-string, '"' and '\' are sent as quoted-pairs.
  if (form.param !== undefined && !form.quoted) return `${word} ${form.param}=${key}`;
  if (form.param !== undefined) return `${word} ${form.param}="${key.replace(/["\\]/g, '\\$&')}"`;
  return `${word} ${key}`;
}
