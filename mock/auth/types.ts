/**
 * The contract between the credential verifiers (mock/auth/*) and the request pipeline (mock/app.ts).
 * Seed §5: the server verifies the client's identity from the Authorization header before it processes
 * the request. docs/design.md "Status choices" fixes which failure maps to which status.
 */

export type Scheme = 'bearer' | 'basic' | 'apikey';

/** A verified client. Roles and scopes come from JWT claims or the identity store. */
export interface Identity {
  /** Stable id: the JWT `sub`, the Basic user name, or the API key's owner. */
  readonly id: string;
  readonly scheme: Scheme;
  readonly roles: readonly string[];
  readonly scopes: readonly string[];
}

/**
 * Why authentication failed, as a stable code (jose's `ERR_JWT_EXPIRED` habit). The journal records the
 * code and reason; problem+json shows the reason; neither ever contains the credential.
 */
export type AuthFailureCode =
  | 'missing' // no Authorization header → 401, no `error` (RFC 6750 §3.1)
  | 'scheme_not_accepted' // a scheme this route does not accept → 401
  | 'malformed' // not token68, empty, bad base64, no colon, duplicate header → 400 invalid_request
  | 'jwt_invalid' // signature, alg, claims, crit … → 401 invalid_token
  | 'jwt_expired'
  | 'jwt_not_yet_valid'
  | 'jwt_alg_not_allowed'
  | 'jwt_claim_invalid' // iss / aud / other claim check
  | 'jwt_crit_unsupported'
  | 'jwt_signature_invalid'
  | 'basic_unknown_user'
  | 'basic_wrong_password'
  | 'apikey_unknown';

export type AuthResult =
  | { readonly ok: true; readonly identity: Identity }
  | {
      readonly ok: false;
      /** 400 for malformed credentials, 401 otherwise. */
      readonly status: 400 | 401;
      readonly code: AuthFailureCode;
      /** Human reason without the credential, e.g. 'token expired 42 s ago'. */
      readonly reason: string;
      /** The scheme the client tried, when one was recognised. */
      readonly scheme?: Scheme;
    };

/**
 * Verifies the Authorization header(s) of one request against the schemes a route accepts.
 * `headerValues` holds every Authorization field line received (more than one is malformed → 400).
 * Answers at once when nothing needs waiting (no or malformed credentials, an API key, a credential verified
 * before); a promise when a signature or a password must be checked. Never throws or rejects for bad input;
 * throws TypeError only on misuse.
 */
export interface Authenticator {
  /**
   * `connection`: the request's connection (its socket), when there is one. What the Authorization value
   * alone decides (its syntax, its scheme, its digest) is remembered for that connection's next request
   * carrying the same value (mock/auth/prepared.ts); the verification is not.
   */
  authenticate(
    headerValues: readonly string[],
    accepted: readonly Scheme[],
    now: number,
    connection?: object,
  ): AuthResult | Promise<AuthResult>;
}

/** What `createAuthenticator(settings)` in mock/auth/authenticator.ts needs; defaults live in mock/config.ts. */
export interface AuthSettings {
  /** Public JWKS the Bearer verifier trusts (fixtures/keys/jwks.json). */
  readonly jwksPath: string;
  /** Users with scrypt-hashed passwords and API keys stored as hashes (fixtures/identities.json). */
  readonly identitiesPath: string;
  readonly issuer: string;
  readonly audience: string;
  /** RFC 8725 §3.1: an explicit allow-list; never `none`, never HS* next to asymmetric keys. */
  readonly algorithms: readonly string[];
  readonly clockToleranceSeconds: number;
  /** Upper bound on verified credentials kept so the hot path skips signature checks and scrypt. */
  readonly cacheSize: number;
}
