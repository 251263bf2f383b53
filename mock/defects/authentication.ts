/**
 * Defects of the `header parsing`, `credentials`, `bearer tokens` and `authorization` layers, as a wrapper
 * around the real Authenticator (mock/auth/authenticator.ts): nothing in mock/auth changes, and a mock
 * without these defects never sees the wrapper. Each defect is one small function chosen at start-up:
 *   before — rewrites the request's view of the header (first of two lines wins, case-sensitive scheme…);
 *   rescue — lets in a credential the real verifier refused (any password, alg none, key confusion…);
 *   after  — refuses or changes an identity the real verifier accepted (exp in ms, roles ignored…).
 * Authorization defects change the identity's roles and scopes, so the pipeline's authorization stage
 * (mock/pipeline/authorization.ts) lets it through exactly as a server that skipped the check would.
 */
import { readFile } from 'node:fs/promises';
import { decodeJwt, type JSONWebKeySet } from 'jose';
import { parseAuthorization } from '../auth/authorization-header.ts';
import { decodeStrictBase64 } from '../auth/base64.ts';
import { type BasicCredentials, decodeUtf8, splitUserPass } from '../auth/basic-credentials.ts';
import { sha256 } from '../auth/digest.ts';
import { authFailure } from '../auth/failures.ts';
import { type IdentityStore, loadIdentityStore } from '../auth/identity-store.ts';
import type { Authenticator, AuthResult, AuthSettings, Identity, Scheme } from '../auth/types.ts';
import type { Router } from '../routing/router.ts';
import { createLenientVerifier, type JwtRelaxations } from './jwt.ts';
import type { DefectName } from './registry.ts';

type Failure = Extract<AuthResult, { ok: false }>;
type Parsed = { readonly scheme: string; readonly credentials: string | undefined } | undefined;

interface Request {
  values: readonly string[];
  accepted: readonly Scheme[];
}

/** Changes the request, or answers it before the real authenticator runs. */
type Before = (request: Request) => AuthResult | undefined;
/** An identity for a credential the real authenticator refused, or undefined (stays refused). */
type Rescue = (
  parsed: Parsed,
  failure: Failure,
  now: number,
) => Promise<Identity | undefined> | Identity | undefined;
/** The result for an identity the real authenticator (or a rescue) accepted. */
type After = (parsed: Parsed, identity: Identity, now: number) => AuthResult;

const ALL_SCHEMES: readonly Scheme[] = ['bearer', 'basic', 'apikey'];
const CANONICAL: Readonly<Record<string, string>> = { bearer: 'Bearer', basic: 'Basic', apikey: 'Apikey' };
/** `auth-scheme 1*SP`, the scheme as received (case kept) and the spaces after it. */
const SCHEME_AND_SPACES = /^[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)( +)/;

export interface AuthenticationContext {
  readonly settings: AuthSettings;
  readonly router: Router;
}

/** The wrapped authenticator, or `real` itself when none of `names` acts on authentication. */
export async function defectiveAuthenticator(
  real: Authenticator,
  names: ReadonlySet<DefectName>,
  context: AuthenticationContext,
): Promise<Authenticator> {
  const on = (name: DefectName): boolean => names.has(name);
  const before: Before[] = [];
  const rescues: Rescue[] = [];
  const afters: After[] = [];
  const { settings, router } = context;
  let store: IdentityStore | undefined;
  const identities = async (): Promise<IdentityStore> => {
    store ??= await loadIdentityStore(settings.identitiesPath);
    return store;
  };

  // ----------------------------------------------------------------------------------------- header parsing
  if (on('duplicate-authorization-first-wins')) {
    before.push((request) => {
      if (request.values.length > 1) request.values = request.values.slice(0, 1);
      return undefined;
    });
  }
  if (on('scheme-not-enforced')) {
    before.push((request) => {
      request.accepted = ALL_SCHEMES;
      return undefined;
    });
  }
  if (on('scheme-case-sensitive')) {
    before.push((request) => {
      const scheme = SCHEME_AND_SPACES.exec(request.values[0] ?? '')?.[1];
      const canonical = scheme === undefined ? undefined : CANONICAL[scheme.toLowerCase()];
      if (canonical === undefined || scheme === canonical) return undefined;
      // `value.startsWith('Bearer ')`: any other spelling is a scheme the server does not know.
      return authFailure('scheme_not_accepted', 'authentication scheme not recognised');
    });
  }
  if (on('scheme-single-space')) {
    before.push((request) => {
      const spaces = SCHEME_AND_SPACES.exec(request.values[0] ?? '')?.[2];
      if (spaces === undefined || spaces.length === 1) return undefined;
      // `value.split(' ')[1]` is '' when two spaces follow the scheme.
      return authFailure('malformed', 'credentials are empty');
    });
  }
  if (on('basic-bad-base64-500')) {
    before.push((request) => {
      const parsed =
        request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
      // atob() throws a DOMException on characters outside base64; nothing catches it, so the request dies (500).
      if (parsed?.scheme === 'basic' && parsed.credentials !== undefined) atob(parsed.credentials);
      return undefined;
    });
  }

  // -------------------------------------------------------------------------------------------- credentials
  if (on('basic-any-password')) {
    const users = await identities();
    rescues.push((parsed, failure) => {
      if (failure.code !== 'basic_wrong_password') return undefined;
      const credentials = basicCredentials(parsed);
      const user = credentials && users.passwords.get(credentials.userId.normalize('NFC'));
      return user ? Object.freeze({ ...user.identity, scheme: 'basic' as const }) : undefined;
    });
  }
  if (on('basic-password-colon')) {
    const cut = authFailure('basic_wrong_password', 'user name or password is not valid', 'basic');
    afters.push((parsed, identity) => {
      if (identity.scheme !== 'basic') return { ok: true, identity };
      // `const [user, pass] = decoded.split(':')`: everything after a second colon is lost.
      const password = basicCredentials(parsed)?.password ?? '';
      return password.includes(':') ? cut : { ok: true, identity };
    });
  }
  if (on('apikey-prefix')) {
    const keys = (await identities()).apikeys;
    rescues.push((parsed, failure) => {
      if (failure.code !== 'apikey_unknown' || parsed?.credentials === undefined) return undefined;
      // strncmp(given, stored, strlen(stored)): a given key that starts with a stored one matches it.
      const given = parsed.credentials;
      for (let length = given.length - 1; length > 0; length--) {
        const owner = keys.get(hexSha256(given.slice(0, length)));
        if (owner !== undefined) return Object.freeze({ ...owner.identity, scheme: 'apikey' as const });
      }
      return undefined;
    });
  }

  // ------------------------------------------------------------------------------------------ bearer tokens
  const relax: JwtRelaxations = {
    algNone: on('alg-none'),
    signature: on('jwt-skip-signature'),
    keyConfusion: on('jwt-key-confusion'),
    ecdsaZero: on('ecdsa-zero-signature'),
    kidEmptySecret: on('jwt-kid-empty-secret'),
    embeddedKey: on('jwt-embedded-key'),
    structure: on('jwt-lenient-structure'),
    exp: on('jwt-accept-expired'),
    nbf: on('jwt-ignore-nbf'),
    aud: on('jwt-ignore-aud'),
    iss: on('jwt-ignore-iss'),
    issAudOptional: on('jwt-iss-aud-optional'),
    crit: on('jwt-ignore-crit'),
  };
  if (Object.values(relax).some(Boolean)) {
    const jwks = JSON.parse(await readFile(settings.jwksPath, 'utf8')) as JSONWebKeySet;
    const lenient = await createLenientVerifier(settings, jwks, relax);
    rescues.push((parsed, failure, now) =>
      failure.scheme === 'bearer' && failure.status === 401 && parsed?.credentials !== undefined
        ? lenient(parsed.credentials, now)
        : undefined,
    );
  }
  if (on('bearer-fail-open')) {
    // `try { verify(token) } catch { next() }`: the caller goes on as nobody in particular.
    const anonymous: Identity = Object.freeze({ id: 'anonymous', scheme: 'bearer', roles: [], scopes: [] });
    rescues.push((_parsed, failure) => (failure.code === 'jwt_invalid' ? anonymous : undefined));
  }
  if (on('jwt-exp-milliseconds')) {
    afters.push((parsed, identity, now) => {
      if (identity.scheme !== 'bearer') return { ok: true, identity };
      const { exp } = claims(parsed);
      // `if (payload.exp < Date.now())`: seconds against milliseconds, so every token has expired.
      return typeof exp === 'number' && exp < now
        ? authFailure('jwt_expired', 'token expired', 'bearer')
        : { ok: true, identity };
    });
  }
  if (on('jwt-roles-ignored')) {
    afters.push((parsed, identity) => {
      if (identity.scheme !== 'bearer') return { ok: true, identity };
      // The issuer writes `roles`; this server reads `role`.
      const { role } = claims(parsed);
      return {
        ok: true,
        identity: Object.freeze({ ...identity, roles: typeof role === 'string' ? [role] : [] }),
      };
    });
  }

  // ------------------------------------------------------------------------------------------ authorization
  const everything = grantsOf(router);
  if (on('admin-open-to-users')) {
    // `if (user.roles.length > 0)` where `user.roles.includes(required)` was meant: any role is every role.
    afters.push((_parsed, identity) =>
      identity.roles.length === 0
        ? { ok: true, identity }
        : {
            ok: true,
            identity: Object.freeze({ ...identity, roles: union(identity.roles, everything.roles) }),
          },
    );
  }
  if (on('apikey-skips-authorization')) {
    afters.push((_parsed, identity) =>
      identity.scheme === 'apikey'
        ? { ok: true, identity: elevated(identity, everything) }
        : { ok: true, identity },
    );
  }
  if (on('jwt-cache-skips-authorization')) {
    const seen = new Set<string>();
    afters.push((parsed, identity) => {
      if (identity.scheme !== 'bearer' || parsed?.credentials === undefined) return { ok: true, identity };
      const key = sha256(parsed.credentials);
      // The first sight takes the slow path (role check included); a repeat takes the cache's fast path.
      if (seen.has(key)) return { ok: true, identity: elevated(identity, everything) };
      seen.add(key);
      return { ok: true, identity };
    });
  }

  if (before.length === 0 && rescues.length === 0 && afters.length === 0) return real;

  return {
    async authenticate(headerValues, accepted, now) {
      const request: Request = { values: headerValues, accepted };
      for (const step of before) {
        const answer = step(request);
        if (answer !== undefined) return answer;
      }
      let result = await real.authenticate(request.values, request.accepted, now);
      const parsed: Parsed =
        request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
      if (!result.ok) {
        const failure = result;
        for (const rescue of rescues) {
          const identity = await rescue(parsed, failure, now);
          if (identity !== undefined && request.accepted.includes(identity.scheme)) {
            result = { ok: true, identity };
            break;
          }
        }
      }
      for (const after of afters) {
        if (!result.ok) break;
        result = after(parsed, result.identity, now);
      }
      return result;
    },
  };
}

function basicCredentials(parsed: Parsed): BasicCredentials | undefined {
  if (parsed?.scheme !== 'basic' || parsed.credentials === undefined) return undefined;
  const bytes = decodeStrictBase64(parsed.credentials);
  const text = bytes && decodeUtf8(bytes);
  return text === undefined ? undefined : splitUserPass(text);
}

function claims(parsed: Parsed): Record<string, unknown> {
  try {
    return parsed?.credentials === undefined ? {} : decodeJwt(parsed.credentials);
  } catch {
    return {};
  }
}

function hexSha256(value: string): string {
  return Buffer.from(sha256(value), 'base64url').toString('hex');
}

interface Grants {
  readonly roles: readonly string[];
  readonly scopes: readonly string[];
}

/** Every role and scope the policy asks for: what an identity that skips authorization effectively holds. */
function grantsOf(router: Router): Grants {
  const roles = new Set<string>();
  const scopes = new Set<string>();
  for (const route of router.routes) {
    for (const rule of route.rules.values()) {
      for (const role of rule.roles) roles.add(role);
      for (const scope of rule.scopes) scopes.add(scope);
    }
  }
  return { roles: [...roles], scopes: [...scopes] };
}

function union(a: readonly string[], b: readonly string[]): readonly string[] {
  return Object.freeze([...new Set([...a, ...b])]);
}

function elevated(identity: Identity, grants: Grants): Identity {
  return Object.freeze({
    ...identity,
    roles: union(identity.roles, grants.roles),
    scopes: union(identity.scopes, grants.scopes),
  });
}
