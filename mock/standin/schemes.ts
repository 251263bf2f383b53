/**
 * How the mock checks each Security Scheme Object of the document (OpenAPI 3.1 §4.8.27, 3.0 §4.7.33), read with
 * `gatecheck init`'s reading (cli/init/security.ts `readCarriers`: what goes in Authorization, with which word)
 * and, for keys sent elsewhere, the scheme's own `in` and `name`:
 * - `jwt`: `http` bearer, `oauth2`, `openIdConnect`, a key the document says is sent as Bearer — a JWT the mock
 *   signed (RFC 6750 §2.1);
 * - `basic`: `http` basic (RFC 7617), a user the mock made;
 * - `key`: an `apiKey`, in Authorization after the document's word (init's reading; `Apikey` when it states
 *   none), or in the header, query parameter or cookie the document names (§4.8.27 `in`, `name`).
 * Any other scheme (`mutualTLS`, `http` digest…) is `unsupported`: a requirement naming it is never met.
 */
import { type Carrier, readCarriers } from '../../cli/init/security.ts';
import { isRecord } from '../../shared/is-record.ts';
import { quote } from '../http/challenge.ts';

type Json = Record<string, unknown>;

export type DocumentSchemeKind = 'jwt' | 'basic' | 'key' | 'unsupported';

export type CredentialPlace =
  /** In Authorization: `word` is the auth-scheme ('' : the key alone), `param` the auth-param a key is the value of. */
  | { readonly in: 'authorization'; readonly word: string; readonly param: string | undefined }
  | { readonly in: 'header' | 'query' | 'cookie'; readonly name: string };

export interface DocumentScheme {
  readonly name: string;
  readonly kind: DocumentSchemeKind;
  readonly place: CredentialPlace;
  /** The 401 challenge for it (RFC 9110 §11.6.1), or undefined for an unsupported scheme. */
  readonly challenge: string | undefined;
  /** oauth2: the scopes its flows list. */
  readonly scopes: readonly string[];
  /** oauth2: a client-credentials or password flow, whose tokens the mock's token endpoint hands out. */
  readonly flow: Carrier['flow'];
  /**
   * A key that only changes what another credential does — Gitea's and Forgejo's `Sudo` (act as another user,
   * "Admin privileges are required"), their one-time password header ("Must be used in combination with
   * BasicAuth"): its name or description says so. Never a credential alone (access.ts).
   */
  readonly modifier: boolean;
}

const MODIFIER_NAME = /(^|[^a-z])(sudo|otp|totp|2fa|mfa|one.?time)([^a-z]|$)/i;
const MODIFIER_WORDS =
  /in combination with|together with|along ?side|alongside|used with another|as the user provided|act(s|ing)? as (another|the) user|impersonat|one-time password|two-factor/i;

/** Whether an apiKey scheme only modifies another credential (its name or description says so). */
function modifierOf(name: string, raw: unknown): boolean {
  if (!isRecord(raw) || raw.type !== 'apiKey') return false;
  const description = typeof raw.description === 'string' ? raw.description : '';
  return MODIFIER_NAME.test(`${name} ${String(raw.name ?? '')}`) || MODIFIER_WORDS.test(description);
}

function authorization(word: string): CredentialPlace {
  const [scheme = '', param] = word.split(' ');
  return { in: 'authorization', word: scheme, param };
}

/** One challenge per scheme: `Bearer realm="…"`; a key outside Authorization names where it goes. */
function challengeOf(kind: DocumentSchemeKind, place: CredentialPlace, realm: string): string | undefined {
  if (kind === 'unsupported') return undefined;
  if (place.in !== 'authorization')
    // RFC 9110 §15.5.2: a 401 MUST carry a challenge; a key in a header, query or cookie has no auth-scheme of
    // its own, so the challenge names the mock's key scheme and where the document puts the key.
    return `Apikey realm=${quote(realm)}, in=${quote(place.in)}, name=${quote(place.name)}`;
  if (kind === 'basic') return `Basic realm=${quote(realm)}, charset="UTF-8"`;
  if (place.word === '') return `Apikey realm=${quote(realm)}`;
  return `${place.word} realm=${quote(realm)}`;
}

export function readDocumentSchemes(doc: Json, realm: string): Map<string, DocumentScheme> {
  const components = isRecord(doc.components) ? doc.components : {};
  const raws = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  const out = new Map<string, DocumentScheme>();
  for (const carrier of readCarriers(doc).values()) {
    const raw = raws[carrier.name];
    let kind: DocumentSchemeKind = 'unsupported';
    let place: CredentialPlace = authorization('');
    if (carrier.scheme === 'bearer') {
      kind = 'jwt';
      place = authorization('Bearer');
    } else if (carrier.scheme === 'basic') {
      kind = 'basic';
      place = authorization('Basic');
    } else if (carrier.scheme === 'apikey') {
      kind = 'key';
      // init assumes the seed's `Apikey` when the document states no word; the mock takes what init sends.
      place = authorization(carrier.word ?? 'Apikey');
    } else if (
      isRecord(raw) &&
      raw.type === 'apiKey' &&
      typeof raw.name === 'string' &&
      raw.name !== '' &&
      (raw.in === 'header' || raw.in === 'query' || raw.in === 'cookie')
    ) {
      kind = 'key';
      place = { in: raw.in, name: raw.in === 'header' ? raw.name.toLowerCase() : raw.name };
    }
    out.set(carrier.name, {
      name: carrier.name,
      kind,
      place,
      challenge: challengeOf(kind, place, realm),
      scopes: carrier.scopes,
      flow: carrier.flow,
      modifier: modifierOf(carrier.name, raw),
    });
  }
  return out;
}
