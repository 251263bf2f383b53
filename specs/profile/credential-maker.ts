/**
 * The one place that spells an `Authorization` value (issue #36 "One credential maker"): the scheme words
 * and forms of a target — the seed's `Bearer`, `Basic` and `Apikey` (§5), the key's form resolved once from
 * the profile's `apikeyScheme` — and every value the suite sends built from them: valid, boundary,
 * malformed, or one credential under another scheme. Messages name a scheme through it too, so they print
 * the target's own word. The observers' judges and the fuzz grammar read their scheme tables from here.
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]      RFC 9110 §11.4
 *   Bearer:  credentials = "Bearer" 1*SP b64token                      RFC 6750 §2.1
 *   Basic:   credentials = "Basic" 1*SP token68, token68 = base64( UTF-8( user-id ":" password ) )
 *                                                                      RFC 7617 §2, §2.1
 */
import { type ApikeyForm, apikeyAuthorization, apikeyForm } from './apikey-scheme.ts';
import type { Profile, Scheme } from './types.ts';

export const SCHEMES: readonly Scheme[] = ['bearer', 'basic', 'apikey'];

/** The scheme names as the seed writes them (§5); targets must accept any letter case (RFC 9110 §11.1). */
export const CANONICAL_SCHEME_NAME: Readonly<Record<Scheme, string>> = {
  bearer: 'Bearer',
  basic: 'Basic',
  apikey: 'Apikey',
};

/** The seed's scheme words, in their canonical spelling (the fuzz grammar's known schemes). */
export const CANONICAL_SCHEME_WORDS: readonly string[] = SCHEMES.map((s) => CANONICAL_SCHEME_NAME[s]);

/** `base64( UTF-8( user-id ":" password ) )` (RFC 7617 §2, §2.1 with charset UTF-8). */
export function basicUserPass(username: string, password: string): string {
  return Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

/** How an auth-param carrying the key is spelled (CredentialMaker.apikeyParam); each part defaults to the form's. */
export interface ParamSpelling {
  readonly name?: string;
  /** BWS before and after "=" (RFC 9110 §5.6.3, §11.2). */
  readonly before?: string;
  readonly after?: string;
  /** The value as a quoted-string (true) or a token (false). */
  readonly quoted?: boolean;
}

export class CredentialMaker {
  /** How the target takes a key (profile `apikeyScheme`; default the seed's `Apikey <key>`). */
  readonly apikeyForm: ApikeyForm;
  /** The auth-scheme word of each scheme as the target spells it; a key sent alone has none. */
  readonly words: Readonly<Partial<Record<Scheme, string>>>;
  /** Other words the target takes for each scheme's credential (profile `schemeAliases`). */
  readonly aliases: Readonly<Partial<Record<Scheme, readonly string[]>>>;

  constructor(profile: Pick<Profile, 'apikeyScheme' | 'schemeAliases'>) {
    this.apikeyForm = apikeyForm(profile);
    this.aliases = Object.freeze({ ...profile.schemeAliases });
    const { word } = this.apikeyForm;
    this.words = Object.freeze({
      bearer: CANONICAL_SCHEME_NAME.bearer,
      basic: CANONICAL_SCHEME_NAME.basic,
      ...(word === undefined ? {} : { apikey: word }),
    });
  }

  /** The maker of `profile`, made once per profile object. */
  static for(profile: Pick<Profile, 'apikeyScheme' | 'schemeAliases'>): CredentialMaker {
    let maker = MAKERS.get(profile);
    if (maker === undefined) {
      maker = new CredentialMaker(profile);
      MAKERS.set(profile, maker);
    }
    return maker;
  }

  /** The auth-scheme word a credential of `scheme` is sent with; undefined for a key sent alone. */
  word(scheme: Scheme): string | undefined {
    return this.words[scheme];
  }

  /** Every word a challenge may name for `scheme`: the target's own and its declared aliases. */
  names(scheme: Scheme): string[] {
    const word = this.words[scheme];
    return [...(word === undefined ? [] : [word]), ...(this.aliases[scheme] ?? [])];
  }

  /** The scheme as a message names it: the target's word, or "the key alone". */
  name(scheme: Scheme): string {
    return this.words[scheme] ?? 'the key alone';
  }

  /** RFC 6750 §2.1: `Bearer 1*SP b64token`; `word` respells the scheme (any letter case, RFC 9110 §11.1). */
  bearer(token: string, word = CANONICAL_SCHEME_NAME.bearer): string {
    return `${word} ${token}`;
  }

  /** RFC 7617 §2: `Basic` and the base64 of the UTF-8 user-pass. */
  basic(username: string, password: string): string {
    return this.basicPayload(basicUserPass(username, password));
  }

  /** RFC 7617 §2: `Basic` and the base64 of a user-pass as given (an edited one: no ":", two, a CTL). */
  basicUserPass(userPass: string): string {
    return this.basicPayload(Buffer.from(userPass, 'utf8').toString('base64'));
  }

  /** `Basic <payload>` with the payload as given (a boundary or malformed token68). */
  basicPayload(payload: string): string {
    return `${CANONICAL_SCHEME_NAME.basic} ${payload}`;
  }

  /** The key in the target's form; `word` respells the scheme (docs/profile.md `apikeyScheme`). */
  apikey(key: string, word?: string): string {
    return word === undefined
      ? apikeyAuthorization(this.apikeyForm, key)
      : apikeyAuthorization(this.apikeyForm, key, word);
  }

  /**
   * The key as the value of the form's auth-param, spelled as asked (RFC 9110 §11.2: auth-param = token BWS "="
   * BWS ( token / quoted-string )): another parameter name, whitespace before and after "=", the other notation
   * of the value. Undefined when the target takes its key in no parameter.
   */
  apikeyParam(key: string, spelling: ParamSpelling = {}): string | undefined {
    const { word, param, quoted } = this.apikeyForm;
    if (word === undefined || param === undefined) return undefined;
    // RFC 9110 §5.6.4: in a quoted-string, '"' and '\' are sent as quoted-pairs.
    const value = (spelling.quoted ?? quoted) ? `"${key.replace(/["\\]/g, '\\$&')}"` : key;
    return `${word} ${spelling.name ?? param}${spelling.before ?? ''}=${spelling.after ?? ''}${value}`;
  }

  /** The scheme's word followed by `rest` as written (malformed values: `Bearer a b`); `rest` alone without a word. */
  raw(scheme: Scheme, rest: string): string {
    const word = this.word(scheme);
    return word === undefined ? rest : rest === '' ? word : `${word} ${rest}`;
  }

  /**
   * A value this maker built for `scheme`, its scheme word and the space after it replaced by `word` and
   * `separator` (RFC 9110 §11.4 `auth-scheme 1*SP …`): respellings and near misses of the word. Undefined for
   * a key sent alone, which has no word.
   */
  respelled(scheme: Scheme, value: string, word: string, separator = ' '): string | undefined {
    const own = this.word(scheme);
    if (own === undefined || !value.startsWith(`${own} `)) return undefined;
    return `${word}${separator}${value.slice(own.length + 1)}`;
  }

  /**
   * `secret` sent as a credential of `scheme`: a token under Bearer, a key in the key's form, a password
   * under Basic with `username` (empty when none). Also how another scheme's credential is sent under this one.
   */
  under(scheme: Scheme, secret: string, username = ''): string {
    switch (scheme) {
      case 'bearer':
        return this.bearer(secret);
      case 'basic':
        return this.basic(username, secret);
      case 'apikey':
        return this.apikey(secret);
    }
  }
}

const MAKERS = new WeakMap<object, CredentialMaker>();

/** The maker for the seed's own forms, where no profile is at hand (token endpoint, grammar defaults). */
export const SEED_CREDENTIALS = new CredentialMaker({});
