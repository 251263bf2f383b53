/**
 * The target profile: everything the suite knows about a target (docs/design.md "The target profile").
 * The JSON Schema in fixtures/schemas/profile.schema.json is the validated form of this type;
 * keep them in step. Unknown keys are refused.
 */

export type Scheme = 'bearer' | 'basic' | 'apikey';

export interface Endpoint {
  /** Path relative to baseUrl, starting with '/'. */
  readonly path: string;
  /** Method that succeeds on this path (default GET). */
  readonly method?: string;
  /** Schemes accepted here; empty or absent on a public endpoint. */
  readonly schemes?: readonly Scheme[];
  /** Query parameters the operation requires, sent by every check on this endpoint. */
  readonly query?: Readonly<Record<string, string>>;
  /** Header fields the operation requires (never Authorization), sent by every check on this endpoint. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a limit is counted per (docs/profile.md "rateLimit"). */
export type RateLimitKey = 'address' | 'identity' | 'credential' | 'endpoint';

/** One declared limit (profile `rateLimit`, or one entry of its list). */
export interface RateLimitEntry {
  /** Requests allowed per window per client key. */
  readonly limit: number;
  readonly windowSeconds: number;
  /** Which identity the burst uses (default ratelimit), and where. */
  readonly identity?: 'admin' | 'user' | 'ratelimit';
  readonly endpoint?: Endpoint;
  /** Requests sent while limited before the target bans (403), if it does. */
  readonly banAfter?: number;
  /** How long a ban lasts when the target names no Retry-After. */
  readonly banSeconds?: number;
  /**
   * What the limit is counted per: the client address across all routes, the identity, the credential value,
   * or the endpoint (per route). The suite's scheduler paces each such counter (specs/run/); not declared, it
   * starts per credential and learns the key from the limited answers it meets.
   */
  readonly key?: RateLimitKey;
  /** The status the limiter answers with (default 429): a 503 without Retry-After is limiting only if declared. */
  readonly status?: 429 | 503;
  /** Most requests the target takes back to back, when fewer than `limit`. */
  readonly burst?: number;
  /**
   * Which requests the limit counts: all of them (default); only those to `endpoint` (a route with a short
   * limit of its own); only those without a credential (`anonymous`) or with one (`authenticated`).
   */
  readonly appliesTo?: 'all' | 'endpoint' | 'anonymous' | 'authenticated';
  /** Path templates (`/users/{id}`) the limit counts; absent: every path. */
  readonly routes?: readonly string[];
  /** A name for reports (`anon`, `burst`, `login`); default `limit <n>`. */
  readonly name?: string;
}

export interface BasicCredential {
  readonly username: string;
  readonly password: string;
}

/**
 * As written in the profile file, any credential may instead be `{ "env": "NAME" }`: the loader replaces it
 * with that environment variable's value (specs/profile/env-secrets.ts), so the typed Profile holds strings.
 */
export interface EnvReference {
  readonly env: string;
}

/** RFC 6749 §4.4 (client_credentials) or §4.3 (password) token request. */
export interface OAuth2TokenSource {
  /** Absolute URL, or a path relative to the base URL. */
  readonly tokenUrl: string;
  readonly grant: 'client_credentials' | 'password';
  readonly clientId: string;
  readonly clientSecret: string;
  /** RFC 6749 §2.3.1: HTTP Basic (default) or client_id/client_secret in the body. */
  readonly clientAuth?: 'basic' | 'body';
  readonly scope?: string;
  readonly audience?: string;
  /** Resource owner's, for the password grant. */
  readonly username?: string;
  readonly password?: string;
}

/** A login call of an API without OAuth: the token is read from the JSON answer by JSON Pointer (RFC 6901). */
export interface LoginTokenSource {
  /** Default POST. */
  readonly method?: string;
  /** Absolute URL, or a path relative to the base URL. */
  readonly path: string;
  readonly json?: Readonly<Record<string, string>>;
  readonly form?: Readonly<Record<string, string>>;
  readonly tokenPointer: string;
  /** Lifetime in seconds; without it the token is fetched once per run. */
  readonly expiresInPointer?: string;
}

/** Where an identity's Bearer token comes from at run time (one key). */
export type TokenSource = { readonly oauth2: OAuth2TokenSource } | { readonly login: LoginTokenSource };

/** Credentials of one identity, per scheme; a scheme absent here is skipped by rules that need it. */
export interface IdentityCredentials {
  readonly bearer?: string;
  /** Bearer token fetched at run time, shared by all workers and refreshed before expiry (specs/credentials). */
  readonly token?: TokenSource;
  readonly basic?: BasicCredential;
  readonly apikey?: string;
  /** Claims the suite puts in tokens it mints for this identity (needs `jwt` signing material). */
  readonly jwtClaims?: Readonly<Record<string, unknown>>;
}

export interface JwtMaterial {
  /** Algorithm the target accepts, e.g. RS256, ES256, HS256. */
  readonly alg: string;
  /** Private JWK (asymmetric algs) the suite signs with; or `secret` for HS*. */
  readonly privateJwk?: Readonly<Record<string, unknown>>;
  readonly secret?: string;
  /** The target's public JWK, for the key-confusion attack (HS256 signed with the public key). */
  readonly publicJwk?: Readonly<Record<string, unknown>>;
  readonly issuer?: string;
  readonly audience?: string;
  /** Seconds of clock leeway the target allows; the suite stays outside it (default 300). */
  readonly leewaySeconds?: number;
}

export interface TlsSettings {
  /** PEM file of the CA that signed the target's certificate (also `--ca-cert`). */
  readonly ca?: string;
  /** PEM client certificate and key, for targets that ask for one. */
  readonly cert?: string;
  readonly key?: string;
  /** Skip certificate verification (self-signed staging only); reported in the console and the report. */
  readonly insecure?: boolean;
}

/** A client the target blocks by address or location, as a header the target trusts says (seed §7 403 cause 2). */
export interface BlockedClient {
  /** What the headers stand for, in messages: `address 192.0.2.10 (X-Forwarded-For)`. */
  readonly label: string;
  /** Sent with the check's requests, e.g. `{ "X-Forwarded-For": "192.0.2.10" }` or `{ "CF-IPCountry": "ZZ" }`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The same headers naming a client the target serves (default: the headers left out). */
  readonly unblockedHeaders?: Readonly<Record<string, string>>;
}

export interface Blocked {
  /** Clients whose address or country the target blocks; checked on `endpoints.protected`. */
  readonly clients?: readonly BlockedClient[];
  /** A request closed to every client by the target's access rules (seed §7 403 cause 5). */
  readonly closed?: Endpoint;
}

export interface Profile {
  readonly $schema?: string;
  /** Human name of the target, shown in reports. */
  readonly name: string;
  /** Choices `gatecheck init` guessed (docs/package.md), one line each naming the field; ignored by the run. */
  readonly todo?: readonly string[];
  /** A waiver file, relative to the profile (docs/ci.md); --waivers overrides it. Read by the CI gate only. */
  readonly waivers?: string;
  /** Overridden by BASE_URL / --base-url; required from one of the three. */
  readonly baseUrl?: string;
  readonly endpoints: {
    /** Answers 200 without credentials (seed §4: GET /users). */
    readonly public?: Endpoint;
    /** Needs credentials; any listed identity may use it (seed §4: GET /protected). */
    readonly protected?: Endpoint;
    /** Needs the admin role: ordinary user → 403 (seed §7 example: GET /admin). */
    readonly admin?: Endpoint;
    /** A path the target does not have → 404. */
    readonly missing?: Endpoint;
    /** A collection that supports writes (POST/PUT/DELETE → 200, seed §4 rule 2). */
    readonly collection?: Endpoint & {
      readonly writeSchemes?: readonly Scheme[];
      /**
       * Identity allowed to write (default admin): `admin` or `user` (the other gets 403), or `any` (every
       * authenticated identity may write, so no identity lacks write permission and the lacking-scope rule skips).
       */
      readonly writer?: 'admin' | 'user' | 'any';
      /** A JSON object the target accepts as a new item. */
      readonly sampleItem?: Readonly<Record<string, unknown>>;
      /** An id that does not exist in the collection → 404. */
      readonly missingId?: string;
      /** Largest write body (bytes) the target takes; a larger one must get 400 or 413, never 2xx or 5xx. */
      readonly maxBodyBytes?: number;
      /** The created item's field that holds its id, to address it for PUT and DELETE (default `id`; `data.id`). */
      readonly idField?: string;
      /** One item's path, `{id}` for its id, when it is not `<path>/<id>` (`/tags/{id}/`, `/Calls/{id}.json`). */
      readonly itemPath?: string;
      /**
       * The success status of each write as the target declares it (seed §4 rule 2: 200): the success rules judge
       * against it, and a status other than 200 is a declared deviation (specs/declaration/deviations.ts).
       */
      readonly declaredStatuses?: {
        readonly post?: number;
        readonly put?: number;
        readonly patch?: number;
        readonly delete?: number;
      };
      /** The method that replaces an item (default PUT, as the seed); PATCH is a declared deviation. */
      readonly replaceMethod?: 'PUT' | 'PATCH';
      /** The document declares a Location field on the create's answer: a 2xx create must carry one. */
      readonly createLocation?: boolean;
    };
    /** A known path plus a method it does not support → 405 with Allow. */
    readonly methodNotAllowed?: Endpoint;
  };
  /**
   * How a key is sent in Authorization (RFC 9110 §11.4; specs/profile/apikey-scheme.ts): the scheme word
   * before it (default `Apikey`), a word and a parameter name (`MediaBrowser Token` → `MediaBrowser
   * Token="<key>"`), or `""` when the whole field value is the key.
   */
  readonly apikeyScheme?: string;
  /**
   * Other scheme words the target takes for the same credential (RFC 9110 §11.1 leaves scheme names to each
   * mechanism's registration; Rails takes `Token` beside `Bearer`): a challenge naming one is right, and a
   * credential sent under one is the same credential, not another scheme's (issue #68).
   */
  readonly schemeAliases?: Readonly<Partial<Record<Scheme, readonly string[]>>>;
  /**
   * The methods each path supports (RFC 9110 §10.2.1), keyed by path: a 405's Allow on a listed path must
   * list exactly these, plus HEAD and OPTIONS when the target answers them. Unlisted paths get the methods
   * the endpoints declare (specs/profile/methods.ts).
   */
  readonly methods?: Readonly<Record<string, readonly string[]>>;
  readonly identities: {
    readonly admin?: IdentityCredentials;
    readonly user?: IdentityCredentials;
    /** A throw-away identity the rate-limit rules may exhaust and get banned. */
    readonly ratelimit?: IdentityCredentials;
  };
  readonly jwt?: JwtMaterial;
  /** HTTPS settings every client of the suite honours (specs/lib/tls.ts). */
  readonly tls?: TlsSettings;
  /** How to appear blocked to the target (seed §7 403 causes 2 and 5); without it the blocked rules skip. */
  readonly blocked?: Blocked;
  /**
   * The target's rate limit, or several (a list: each request is paced by every entry that applies to it).
   * Read it through ratePolicyOf (specs/profile/rate-policy.ts), which applies the defaults once.
   */
  readonly rateLimit?: RateLimitEntry | readonly RateLimitEntry[];
  /** How to provoke a 500, if the target offers a way. */
  readonly fault?: {
    readonly path: string;
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
  };
  readonly budget?: {
    /** Upper bound on requests the whole run may send. */
    readonly maxRequests?: number;
    /** Requests in flight at once. */
    readonly concurrency?: number;
    /** Per-request timeout. */
    readonly timeoutMs?: number;
    /** Fuzz cases in the default run. */
    readonly fuzzCases?: number;
    /** Longest the whole run may take, rate-limit waits included (default 1800 s). */
    readonly maxSeconds?: number;
  };
}
