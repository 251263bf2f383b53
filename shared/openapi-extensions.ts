/**
 * The `x-gatecheck-*` extension fields (OpenAPI 3.1 §4.9 "Specification Extensions"): what a target's OpenAPI
 * document may state for `gatecheck init` where OpenAPI has no field of its own (docs/package.md "What a
 * document can add"). The mock writes them into its `/openapi.json`; init reads them from any document.
 * Their fields carry the names of the profile's (docs/profile.md), and never a secret.
 */

/** On an `http` `bearer` Security Scheme Object (§4.8.27): how the target verifies its JWTs (RFC 7519). */
export const X_JWT = 'x-gatecheck-jwt';
/** On the OpenAPI Object: the rate limit every operation is counted against. */
export const X_RATE_LIMIT = 'x-gatecheck-rate-limit';
/** On the OpenAPI Object: a test-only request header that makes the target answer 500. */
export const X_FAULT = 'x-gatecheck-fault';
/** On the OpenAPI Object: how a client appears blocked (403), and a request closed by configuration. */
export const X_BLOCKED = 'x-gatecheck-blocked';
/** On a Request Body Object (§4.8.13): the largest body the operation takes, in bytes. */
export const X_MAX_BODY_BYTES = 'x-gatecheck-max-body-bytes';
/**
 * On an `apiKey` Security Scheme Object sent in the Authorization header: the auth-scheme word the key is sent
 * with (RFC 9110 §11.4) — `Apikey`, `Token`, `SSWS`; `MediaBrowser Token` for the auth-param form
 * `MediaBrowser Token="<key>"`; the empty string when the whole field value is the key.
 */
export const X_APIKEY_SCHEME = 'x-gatecheck-apikey-scheme';

export interface JwtExtension {
  /** The `iss` the target trusts and the `aud` it expects (RFC 7519 §4.1.1, §4.1.3). */
  readonly issuer?: string;
  readonly audience?: string;
  /** The JWS algorithms the target accepts (RFC 8725 §3.1), the one test tokens should use first. */
  readonly algorithms?: readonly string[];
  /** Clock leeway the target allows on `exp` and `nbf`, in seconds. */
  readonly leewaySeconds?: number;
  /** The public key (RFC 7517) of a test issuer the target trusts: its private half is the user's secret. */
  readonly publicJwk?: Readonly<Record<string, unknown>>;
  /** Where the target publishes the keys it trusts (RFC 7517 §5), when no `publicJwk` is given. */
  readonly jwksUri?: string;
}

export interface RateLimitExtension {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly key?: 'address' | 'identity' | 'credential' | 'endpoint';
  readonly burst?: number;
  readonly banAfter?: number;
  readonly banSeconds?: number;
  /** The operation that has this limit as a quota of its own; absent: the limit counts on every operation. */
  readonly path?: string;
  readonly method?: string;
}

export interface FaultExtension {
  /** Header fields that provoke a 500 (RFC 9110 §15.6.1). */
  readonly headers: Readonly<Record<string, string>>;
  /** The operation to send them to; absent: any operation of the document honours them. */
  readonly path?: string;
  readonly method?: string;
}

export interface BlockedClientExtension {
  readonly label: string;
  /** Header fields the target believes for the client's address or country, naming a blocked one. */
  readonly headers: Readonly<Record<string, string>>;
  /** The same fields naming a client the target serves. */
  readonly unblockedHeaders?: Readonly<Record<string, string>>;
}

export interface BlockedExtension {
  readonly clients?: readonly BlockedClientExtension[];
  /** A request the target closes to every client by configuration. */
  readonly closed?: { readonly path: string; readonly method: string };
}
