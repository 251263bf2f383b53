/**
 * Checks one request's credential for one security scheme of the document (schemes.ts): absent, the identity
 * it proves, or refused with a reason that never quotes the credential.
 * - In Authorization (RFC 9110 §11.4 `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`): the scheme word is
 *   compared case-insensitively (§11.1: "a case-insensitive token"), so `bearer` passes as `Bearer` does; two
 *   Authorization fields are malformed (§5.3, a singleton field) → 400.
 * - A JWT is verified by the mock's own Bearer verifier (mock/auth/bearer.ts: signature, alg allow-list, iss,
 *   aud, exp — RFC 8725); Basic user-pass is decoded as mock/auth does (strict base64, RFC 7617 §2).
 * - A key in a header, a query parameter or a cookie is read where the document puts it (OpenAPI §4.8.27).
 */

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { decodeStrictBase64 } from '../auth/base64.ts';
import { decodeUtf8, splitUserPass } from '../auth/basic-credentials.ts';
import type { BearerVerifier } from '../auth/bearer.ts';
import { sha256 } from '../auth/digest.ts';
import { lastPerConnection } from '../auth/prepared.ts';
import { isToken68 } from '../auth/token68.ts';
import type { Authenticator, AuthFailureCode, AuthResult, Identity, Scheme } from '../auth/types.ts';
import type { StandInIdentity } from './identities.ts';
import type { DocumentScheme } from './schemes.ts';

export type SchemeCheck =
  | { readonly kind: 'absent' }
  | { readonly kind: 'ok'; readonly identity: Identity }
  | {
      readonly kind: 'refused';
      readonly status: 400 | 401;
      readonly code: AuthFailureCode;
      readonly reason: string;
    };

export const ABSENT: SchemeCheck = { kind: 'absent' };

/** What one request presents, read once and shared by every scheme checked for it. */
export interface Presented {
  readonly req: IncomingMessage;
  /** Every Authorization field line. */
  readonly authorization: readonly string[];
  /** The query string without `?`. */
  readonly query: string;
  readonly now: number;
}

const refused = (status: 400 | 401, code: AuthFailureCode, reason: string): SchemeCheck => ({
  kind: 'refused',
  status,
  code,
  reason,
});

const DUPLICATE = refused(400, 'malformed', 'more than one Authorization header field (RFC 9110 §5.3)');

export interface DocumentVerifier {
  check(scheme: DocumentScheme, presented: Presented): SchemeCheck | Promise<SchemeCheck>;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}

function identityOf(id: StandInIdentity, scheme: Scheme): Identity {
  return { id: id.name, scheme, roles: id.roles, scopes: id.grants };
}

/** The credential after `word` in the one Authorization value, or why there is none. */
function afterWord(
  scheme: DocumentScheme & { place: { in: 'authorization' } },
  values: readonly string[],
): { value: string } | SchemeCheck {
  if (values.length === 0) return ABSENT;
  if (values.length > 1) return DUPLICATE;
  const field = (values[0] as string).trim();
  const { word, param } = scheme.place;
  // A key alone: the whole field value is the key.
  if (word === '') return { value: field };
  const space = field.indexOf(' ');
  const first = space === -1 ? field : field.slice(0, space);
  if (first.toLowerCase() !== word.toLowerCase()) return ABSENT;
  const rest = space === -1 ? '' : field.slice(space + 1).trim();
  if (param !== undefined) {
    // RFC 9110 §11.2: auth-param = token BWS "=" BWS ( token / quoted-string ) — `MediaBrowser Token="<key>"`
    // (quoted, §5.6.4) and PagerDuty's `Token token=<key>` (init's form `Token token=`: a bare token) alike.
    const name = param.replace(/=$/, '');
    const match = new RegExp(
      `(?:^|,)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([!#$%&'*+.^_\`|~0-9A-Za-z-]+))\\s*(?:,|$)`,
      'i',
    ).exec(rest);
    if (match === null)
      return refused(400, 'malformed', `${word} credentials must carry ${name}=<key> (RFC 9110 §11.2)`);
    return { value: match[2] ?? (match[1] as string).replace(/\\(.)/g, '$1') };
  }
  if (!isToken68(rest))
    return refused(400, 'malformed', `${word} credentials must be one token68 (RFC 9110 §11.4)`);
  return { value: rest };
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** The key where a document puts it outside Authorization, or why there is none. */
function keyElsewhere(place: { in: 'header' | 'query' | 'cookie'; name: string }, p: Presented) {
  let value: string | string[] | null | undefined;
  if (place.in === 'header') value = p.req.headers[place.name];
  else if (place.in === 'cookie') value = cookieValue(p.req.headers.cookie, place.name);
  else {
    const all = p.query === '' ? [] : new URLSearchParams(p.query).getAll(place.name);
    value = all.length > 1 ? all : all[0];
  }
  if (value === undefined || value === null) return ABSENT;
  if (Array.isArray(value))
    return refused(400, 'malformed', `${place.name} is sent more than once in the ${place.in}`);
  return { value };
}

/**
 * `authenticator`: the mock's authenticator with its defects around it (mock/defects/seams/authenticator.ts),
 * when defects hook authentication — Bearer JWTs are then verified through it (its real verifier checks them
 * as `bearer` does, with the same settings), so a Bearer-token defect reaches the stand-in's check.
 */
export function createDocumentVerifier(
  identities: readonly StandInIdentity[],
  bearer: BearerVerifier,
  authenticator?: Authenticator,
): DocumentVerifier {
  const byKey = new Map(identities.map((id) => [id.apikey, id]));
  const byUser = new Map(identities.map((id) => [id.username, id]));
  // A token names an identity by its name (the tokens the mock prints and hands out) or by its user name
  // (`gatecheck-admin`: the `sub` of the tokens the suite mints from init's jwtClaims).
  const rolesOf = new Map(identities.map((id) => [id.name, id.roles]));
  const accepted = new WeakMap<Identity, SchemeCheck>();
  const named = new Map(
    identities.flatMap((id) => [[id.name, id.name] as const, [id.username, id.name] as const]),
  );

  const fromBearer = (result: AuthResult): SchemeCheck => {
    if (!result.ok) return refused(result.status, result.code, result.reason);
    // A token the mock signed names one of its identities; its grants are the token's `scope` and `roles`.
    const { identity } = result;
    const name = named.get(identity.id);
    if (name === undefined)
      return refused(401, 'jwt_claim_invalid', 'the token names no identity of this mock');
    // The administrator's role is the mock's own notion (identities.ts ADMIN_ROLE), which no document states
    // and init's jwtClaims cannot guess: the identity the token names brings it. Worked out once per verified
    // identity (the Bearer verifier's cache hands the same object back for the same token).
    let ok = accepted.get(identity);
    if (ok === undefined) {
      const extra = rolesOf.get(name)?.filter((r) => !identity.roles.includes(r)) ?? [];
      // A requirement's names are scopes for oauth2 and roles for other schemes (OpenAPI 3.1 §4.8.30), and the
      // alternatives check them as scopes: the token's `roles` count as its grants too (init's jwtClaims put
      // DigitalOcean's `tag:read`, listed on an http bearer scheme, under roles).
      const grants = identity.roles.filter((r) => !identity.scopes.includes(r));
      ok = {
        kind: 'ok',
        identity:
          name === identity.id && extra.length === 0 && grants.length === 0
            ? identity
            : {
                ...identity,
                id: name,
                roles: [...identity.roles, ...extra],
                scopes: [...identity.scopes, ...grants],
              },
      };
      accepted.set(identity, ok);
    }
    return ok;
  };

  const key = (value: string): SchemeCheck => {
    const id = byKey.get(value);
    return id === undefined
      ? refused(401, 'apikey_unknown', 'the key is not one this mock issued')
      : { kind: 'ok', identity: identityOf(id, 'apikey') };
  };

  const basic = (token68: string): SchemeCheck => {
    const bytes = decodeStrictBase64(token68);
    const text = bytes === undefined ? undefined : decodeUtf8(bytes);
    const pair = text === undefined ? undefined : splitUserPass(text);
    if (pair === undefined)
      return refused(
        400,
        'malformed',
        'Basic credentials must be base64 of user-id ":" password (RFC 7617 §2)',
      );
    const id = byUser.get(pair.userId);
    if (id === undefined) return refused(401, 'basic_unknown_user', 'unknown user or wrong password');
    if (!sameSecret(pair.password, id.password))
      return refused(401, 'basic_wrong_password', 'unknown user or wrong password');
    return { kind: 'ok', identity: identityOf(id, 'basic') };
  };

  // The Bearer value a keep-alive connection sends again is parsed and hashed once (mock/auth/prepared.ts),
  // as the bundled interface's authenticator does; the verification itself runs every time.
  const prepared = lastPerConnection();
  const malformedBearer = refused(400, 'malformed', 'Bearer credentials must be one token68 (RFC 6750 §2.1)');
  const viaBearer = (presented: Presented): SchemeCheck | Promise<SchemeCheck> => {
    if (presented.authorization.length === 0) return ABSENT;
    if (presented.authorization.length > 1) return DUPLICATE;
    const value = prepared(presented.authorization[0] as string, presented.req.socket ?? undefined);
    if (value.scheme !== 'bearer') return value.wellFormed ? ABSENT : malformedBearer;
    if (value.token68 === undefined) return malformedBearer;
    const result =
      authenticator === undefined
        ? bearer(value.token68, presented.now, value.digest)
        : authenticator.authenticate(
            presented.authorization,
            ['bearer'],
            presented.now,
            presented.req.socket,
          );
    return result instanceof Promise ? result.then(fromBearer) : fromBearer(result);
  };

  return {
    check(scheme, presented) {
      if (scheme.kind === 'unsupported') return ABSENT;
      const place = scheme.place;
      if (scheme.kind === 'jwt' && place.in === 'authorization' && place.word === 'Bearer')
        return viaBearer(presented);
      const found =
        place.in === 'authorization'
          ? afterWord(scheme as DocumentScheme & { place: typeof place }, presented.authorization)
          : keyElsewhere(place, presented);
      if (!('value' in found)) return found;
      if (scheme.kind === 'key') return key(found.value);
      if (scheme.kind === 'basic') return basic(found.value);
      const result = bearer(found.value, presented.now, sha256(found.value));
      return result instanceof Promise ? result.then(fromBearer) : fromBearer(result);
    },
  };
}
