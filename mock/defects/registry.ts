/**
 * The defect registry: named, realistic bugs the mock can be switched into, one rule of the catalogue each
 * (issue 7). A conformance suite is only as good as the defects it catches; tests/mutation/ runs the suite
 * against the mock with each defect on and checks that the rules listed here — and only those — fail.
 *
 * Data only. The behaviour lives beside it: mock/defects/authentication.ts (credential checks),
 * mock/defects/jwt.ts (Bearer token checks), mock/defects/replies.ts (statuses and header fields),
 * mock/defects/settings.ts (configuration the defect changes). Names are stable kebab-case: scripts, the
 * fuzz engineer's tests and `npm run mock -- --defect <name>` use them.
 */

/** Where the bug sits, for grouping in `--list-defects` and docs/defects.md. */
export type DefectLayer =
  | 'header parsing'
  | 'credentials'
  | 'bearer tokens'
  | 'challenges'
  | 'authorization'
  | 'routing'
  | 'success statuses'
  | 'errors'
  | 'rate limiting';

/** A mock feature the defect acts on; the mutation run declares it in the target profile. */
export type DefectNeed = 'rateLimit' | 'fault';

export interface DefectSpec {
  /** Stable kebab-case name. */
  readonly name: string;
  readonly layer: DefectLayer;
  /** What the mock does wrong, in one or two sentences. */
  readonly bug: string;
  /** Realistic implementations known to have shipped it, or the code pattern that produces it. */
  readonly seenIn: string;
  /** The rule(s) the defect is meant to break: each must fail when the defect is on. */
  readonly rules: readonly string[];
  /**
   * Other rules that catch the same bug, stated (they check the same behaviour from another angle, or a
   * fuzz property reaches it); they may fail too. A rule outside `rules` and `collateral` that fails is
   * a finding of the mutation test: either the defect is not the one bug it claims, or a rule is too broad.
   */
  readonly collateral?: readonly string[];
  readonly needs?: readonly DefectNeed[];
}

export const DEFECTS = [
  // ---------------------------------------------------------------------------------------------- header parsing
  {
    name: 'scheme-case-sensitive',
    layer: 'header parsing',
    bug: 'Matches the auth-scheme name case-sensitively: "bearer", "BASIC" or "aPiKeY" is treated as an unknown scheme (401) although RFC 9110 §11.1 makes it case-insensitive.',
    seenIn:
      "Hand-written middleware testing `header.startsWith('Bearer ')` or a case-sensitive regular expression.",
    rules: ['auth.scheme.case-insensitive', 'fuzz.credential.legal-variants'],
  },
  {
    name: 'scheme-single-space',
    layer: 'header parsing',
    bug: 'Splits the field value on single spaces (`value.split(" ")[1]`), so "Bearer  <token>" with two spaces yields an empty token and a 400, although RFC 9110 §11.4 allows 1*SP.',
    seenIn: "`authorization.split(' ')[1]`, the most common hand-written token extraction.",
    rules: ['fuzz.credential.legal-variants'],
    // Wrong credentials spelled with two spaces get 400 instead of 401.
    collateral: ['fuzz.wrong-credential.status'],
  },
  {
    name: 'duplicate-authorization-first-wins',
    layer: 'header parsing',
    bug: 'Uses the first of two Authorization field lines instead of refusing the request (RFC 9110 §5.3: Authorization is a singleton field).',
    seenIn:
      "Node's http module keeps the first Authorization line and silently drops the others; most servers built on it inherit that.",
    rules: ['auth.malformed.duplicate-header'],
    collateral: ['fuzz.malformed.status', 'fuzz.invalid-credential.no-2xx'],
  },
  {
    name: 'scheme-not-enforced',
    layer: 'header parsing',
    bug: 'Accepts every scheme it knows on every route: valid API-key credentials open a route whose policy accepts only Bearer or Basic.',
    seenIn: 'Authentication middleware registered globally with all strategies instead of per route.',
    rules: ['auth.401.unaccepted-scheme'],
  },
  // ------------------------------------------------------------------------------------------------- credentials
  {
    name: 'basic-any-password',
    layer: 'credentials',
    bug: 'Accepts any password for a known Basic user-id: the password is never compared.',
    seenIn:
      'Stub authenticators left in place ("TODO: check password"); password checks that compare the wrong field.',
    rules: ['auth.401.invalid-basic'],
    collateral: ['fuzz.wrong-credential.status', 'fuzz.invalid-credential.no-2xx'],
  },
  {
    name: 'basic-password-colon',
    layer: 'credentials',
    bug: 'Splits the decoded user-pass at every colon (`split(":")`), so a password containing ":" is cut short and never matches (RFC 7617 §2: only the first colon separates).',
    seenIn:
      "`const [user, pass] = decoded.split(':')` — common enough that RFC 7617 §2 warns about it explicitly.",
    rules: ['success.200.protected'],
    collateral: [
      'authz.403.lacking-scope',
      'authz.403.reauth-other-scheme',
      'fuzz.credential.legal-variants',
    ],
  },
  {
    name: 'basic-bad-base64-500',
    layer: 'credentials',
    bug: 'Decodes Basic credentials with `atob()` without catching its exception, so characters outside base64 crash the request (500) instead of a 400 or 401.',
    seenIn: '`atob()` / strict base64 decoders called outside a try block in Basic-auth middleware.',
    rules: ['auth.malformed.status', 'fuzz.no-5xx', 'fuzz.malformed.status'],
  },
  {
    name: 'apikey-prefix',
    layer: 'credentials',
    bug: "Accepts an API key that merely starts with a valid key: the comparison stops at the stored key's length.",
    seenIn: '`strncmp(given, stored, strlen(stored))` and its equivalents (`given.startsWith(stored)`).',
    rules: ['auth.401.invalid-apikey'],
  },
  // ----------------------------------------------------------------------------------------------- bearer tokens
  {
    name: 'alg-none',
    layer: 'bearer tokens',
    bug: 'Accepts unsecured JWTs: a token whose header says `"alg": "none"` (any letter case) is taken without checking its signature.',
    seenIn:
      'node-jsonwebtoken < 4.2.2 (CVE-2015-9235) and several other JWT libraries in the 2015 disclosure.',
    rules: ['jwt.alg.none', 'jwt.attack.alg-none', 'fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    collateral: ['fuzz.invalid-credential.no-2xx'],
  },
  {
    name: 'bearer-fail-open',
    layer: 'bearer tokens',
    bug: 'Fails open: a Bearer credential that cannot even be decoded as a JWT makes the verifier throw, and the error handler lets the request through as an anonymous caller.',
    seenIn: 'Authentication middleware whose catch block calls `next()` (CWE-636, not failing securely).',
    rules: ['fuzz.invalid-credential.no-2xx', 'fuzz.wrong-credential.status'],
    // Tokens with a stripped signature or a broken structure are the same undecodable input, let through.
    collateral: [
      'fuzz.jwt.mutation.no-2xx',
      'fuzz.malformed.status',
      'fuzz.bearer.error-code',
      'jwt.attack.signature',
      'jwt.attack.structure',
    ],
  },
  {
    name: 'jwt-skip-signature',
    layer: 'bearer tokens',
    bug: 'Decodes Bearer JWTs without verifying their signature (claims are still checked), so any token with the right claims is accepted.',
    seenIn:
      'Application code calling `jwt.decode()` where `jwt.verify()` was meant; gateways "trusting" tokens verified upstream.',
    rules: ['auth.401.invalid-bearer', 'jwt.attack.signature', 'jwt.attack.payload-tamper'],
    collateral: [
      'jwt.alg.none',
      'jwt.alg.key-confusion',
      'jwt.attack.alg-none',
      'jwt.attack.key-confusion',
      'jwt.attack.ecdsa-zero-signature',
      'jwt.attack.kid-injection',
      'jwt.attack.embedded-key',
      'jwt.attack.structure',
      'fuzz.jwt.mutation.no-2xx',
      'fuzz.jwt.escalation.no-2xx',
      'fuzz.invalid-credential.no-2xx',
      'fuzz.wrong-credential.status',
      // jwt.decode() never looks at the protected header, so `crit` goes unread too.
      'jwt.claims.crit-unknown',
    ],
  },
  {
    name: 'jwt-key-confusion',
    layer: 'bearer tokens',
    bug: "Lets the token choose HS256/384/512 and uses the RSA/EC public key's PEM text as the HMAC secret (RFC 8725 §2.1 key confusion).",
    seenIn:
      'The RS256→HS256 confusion of the 2015 disclosure; jwt-simple (CVE-2016-10555); PyJWT < 2.4.0 (CVE-2022-29217).',
    rules: ['jwt.alg.key-confusion', 'jwt.attack.key-confusion'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
  },
  {
    name: 'ecdsa-zero-signature',
    layer: 'bearer tokens',
    bug: 'Accepts an ECDSA signature with r = s = 0 for any message ("psychic signatures"): the 1 ≤ r, s < n range check is missing.',
    seenIn: 'Java 15–18 ECDSA (CVE-2022-21449).',
    rules: ['jwt.attack.ecdsa-zero-signature'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
  },
  {
    name: 'jwt-kid-empty-secret',
    layer: 'bearer tokens',
    bug: 'Looks the HMAC secret up by the token\'s `kid` and falls back to an empty secret when the lookup finds nothing (a path to /dev/null, an injected SQL fragment, an empty kid), so HS256 tokens MAC\'d with "" are accepted.',
    seenIn:
      '`keys[kid] ?? ""` and key files read by `kid` (path traversal to /dev/null), as in the kid-injection write-ups behind RFC 8725 §3.10.',
    rules: ['jwt.attack.kid-injection'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
  },
  {
    name: 'jwt-embedded-key',
    layer: 'bearer tokens',
    bug: 'Verifies a token with the key its own header offers (`jwk`, or the key at `jku` / `x5u`), so an attacker signs with their own key.',
    seenIn:
      'Cisco node-jose < 0.11.0 (CVE-2018-0114, embedded jwk); libraries that follow `jku` without an allow-list.',
    rules: ['jwt.attack.embedded-key'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
  },
  {
    name: 'jwt-lenient-structure',
    layer: 'bearer tokens',
    bug: 'Parses tokens leniently: keeps the first three dot-separated segments and decodes base64url skipping characters outside the alphabet, so tokens with extra segments or stray characters are accepted.',
    seenIn: "`const [h, p, s] = token.split('.')` with Node's lenient `Buffer.from(x, 'base64url')`.",
    rules: ['jwt.attack.structure'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-accept-expired',
    layer: 'bearer tokens',
    bug: 'Accepts expired tokens: `exp` is never compared with the clock.',
    seenIn: 'node-jsonwebtoken `ignoreExpiration: true` left on; verifiers that only check the signature.',
    rules: ['jwt.claims.exp'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-ignore-nbf',
    layer: 'bearer tokens',
    bug: 'Accepts tokens before their `nbf` (not before) time.',
    seenIn: 'Verifiers that check `exp` by hand and forget `nbf`.',
    rules: ['jwt.claims.nbf'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-ignore-aud',
    layer: 'bearer tokens',
    bug: 'Ignores the audience: a token issued for another service is accepted (RFC 8725 §3.9).',
    seenIn: 'node-jsonwebtoken / jose `verify` called without the `audience` option.',
    rules: ['jwt.claims.aud', 'jwt.attack.missing-iss-aud'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-ignore-iss',
    layer: 'bearer tokens',
    bug: 'Ignores the issuer: a token from another issuer is accepted as long as the signature verifies (RFC 8725 §3.8).',
    seenIn:
      'Verifiers configured with a JWKS but no `issuer` option (multi-tenant identity providers share keys).',
    rules: ['jwt.claims.iss', 'jwt.attack.missing-iss-aud'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-iss-aud-optional',
    layer: 'bearer tokens',
    bug: 'Checks `iss` and `aud` only when the token carries them: a validly signed token without either is accepted.',
    seenIn: '`if (payload.aud && payload.aud !== expected) reject()` — the check written as optional.',
    rules: ['jwt.attack.missing-iss-aud'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-ignore-crit',
    layer: 'bearer tokens',
    bug: 'Ignores the `crit` header: a token that requires an extension the mock does not understand is accepted (RFC 7515 §4.1.11 says MUST reject).',
    seenIn: 'Libraries without `crit` support, which silently ignore the parameter.',
    rules: ['jwt.claims.crit-unknown'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
  },
  {
    name: 'jwt-exp-milliseconds',
    layer: 'bearer tokens',
    bug: 'Compares `exp` (seconds since the epoch) with `Date.now()` (milliseconds), so every valid token looks expired and is refused.',
    seenIn: '`if (payload.exp < Date.now()) throw new Error("expired")`.',
    rules: ['jwt.claims.valid-accepted', 'auth.401.then-valid', 'success.200.protected', 'success.200.admin'],
    collateral: [
      'success.200.post',
      'authz.403.lacking-role',
      'authz.403.lacking-scope',
      // The profile's fault trigger carries the admin's Bearer token, refused before the fault stage.
      'server.500.fault',
    ],
  },
  {
    name: 'jwt-roles-ignored',
    layer: 'bearer tokens',
    bug: "Reads the roles of a Bearer identity from a `role` claim the issuer never sets instead of `roles`, so the admin's token gets 403 on the admin path.",
    seenIn: 'Claim-name mismatches between issuer and resource server (`role` / `roles` / `groups`).',
    rules: ['success.200.admin'],
  },
  // -------------------------------------------------------------------------------------------------- challenges
  {
    name: 'no-www-authenticate',
    layer: 'challenges',
    bug: 'Answers 401 without a WWW-Authenticate field (RFC 9110 §15.5.2: a 401 MUST carry one).',
    seenIn: 'JSON APIs that send 401 with an error body only.',
    rules: ['auth.401.challenge', 'fuzz.401.challenge'],
  },
  {
    name: 'single-challenge',
    layer: 'challenges',
    bug: "Sends only the first accepted scheme's challenge on a route that accepts several.",
    seenIn: 'Servers with one hard-coded `WWW-Authenticate: Bearer` whatever the route accepts.',
    rules: ['auth.401.challenge-per-scheme'],
  },
  {
    name: 'realm-unquoted',
    layer: 'challenges',
    bug: 'Sends the realm as a bare token (`realm=gatecheck`) instead of a quoted-string (RFC 9110 §11.5).',
    seenIn: 'Challenges assembled by string concatenation.',
    rules: ['auth.challenge.realm-quoted'],
  },
  {
    name: 'basic-challenge-bare',
    layer: 'challenges',
    bug: 'Sends the Basic challenge without its realm parameter (`WWW-Authenticate: Basic`), which RFC 7617 §2 requires.',
    seenIn: 'A bare `Basic` challenge, common in hand-written servers.',
    rules: ['basic.challenge.realm'],
  },
  {
    name: 'basic-charset-latin1',
    layer: 'challenges',
    bug: 'Announces `charset="ISO-8859-1"` in the Basic challenge; RFC 7617 §2.1 allows only "UTF-8".',
    seenIn: 'Servers that decode Basic credentials as Latin-1 and say so.',
    rules: ['basic.challenge.charset'],
  },
  {
    name: 'bearer-error-on-missing',
    layer: 'challenges',
    bug: 'Puts `error="invalid_token"` on the Bearer challenge of a request that sent no credentials at all (RFC 6750 §3.1: no error code then).',
    seenIn: 'Bearer middlewares that report "missing token" as invalid_token.',
    rules: ['bearer.challenge.missing-no-error'],
  },
  {
    name: 'bearer-no-error-code',
    layer: 'challenges',
    bug: 'Never puts an `error` parameter on the Bearer challenge, not even for a refused token (RFC 6750 §3).',
    seenIn: 'A fixed `WWW-Authenticate: Bearer realm="…"` for every failure.',
    rules: ['bearer.challenge.invalid-token'],
  },
  {
    name: 'bearer-error-wrong-status',
    layer: 'challenges',
    bug: 'Labels a malformed Bearer request (400) `error="invalid_token"`, the code RFC 6750 §3.1 ties to 401.',
    seenIn: 'One error code for every token failure.',
    rules: ['bearer.error.code-status', 'fuzz.bearer.error-code'],
  },
  {
    name: 'insufficient-scope-no-challenge',
    layer: 'challenges',
    bug: 'Refuses a Bearer token lacking the role with a bare 403, without the `error="insufficient_scope"` challenge.',
    seenIn: 'Most APIs: the 403 is written by generic authorization code that knows nothing of Bearer.',
    rules: ['bearer.403.insufficient-scope'],
  },
  // ----------------------------------------------------------------------------------------------- authorization
  {
    name: 'missing-credentials-403',
    layer: 'authorization',
    bug: 'Answers 403 (no challenge) to a request without credentials, where 401 is due.',
    seenIn:
      "Spring Security's Http403ForbiddenEntryPoint; servers that treat anonymous as an identity without rights.",
    rules: ['auth.401.missing'],
  },
  {
    name: 'forbidden-as-401',
    layer: 'authorization',
    bug: 'Answers 401 with the plain challenges where 403 is due: an authenticated identity lacking the role or scope is told to authenticate.',
    seenIn: 'Authorization failures routed to the authentication entry point; "401 means no access" APIs.',
    rules: ['authz.403.lacking-role', 'authz.403.lacking-scope'],
  },
  {
    name: 'admin-open-to-users',
    layer: 'authorization',
    bug: 'Lets any identity that holds some role into a path that requires a particular one: an ordinary user reaches the admin path.',
    seenIn: '`if (user.roles)` / `roles.length > 0` written where `roles.includes("admin")` was meant.',
    rules: ['authz.403.lacking-role'],
  },
  {
    name: 'apikey-skips-authorization',
    layer: 'authorization',
    bug: 'Treats every API key as a trusted service account and skips the role and scope checks for it.',
    seenIn: 'Service-account shortcuts: "requests with an API key come from our own backend".',
    rules: ['authz.403.lacking-scope', 'authz.403.reauth-other-scheme'],
  },
  {
    name: 'jwt-cache-skips-authorization',
    layer: 'authorization',
    bug: 'Keeps verified Bearer tokens in a cache whose hit path forgets the role check: the second request with the same token is let through where the first got 403.',
    seenIn: 'Fast paths that diverge from the slow path (verification caches, session caches).',
    rules: ['authz.403.reauth-same'],
  },
  {
    name: 'public-requires-auth',
    layer: 'authorization',
    bug: 'Applies authentication to every route, public ones included: GET /users without credentials gets 401.',
    seenIn: 'Authentication middleware mounted globally before the public routes.',
    rules: ['success.200.public'],
  },
  // ----------------------------------------------------------------------------------------------------- routing
  {
    name: 'unknown-path-403',
    layer: 'routing',
    bug: 'Answers 403 for a path that does not exist, even to a valid admin.',
    seenIn:
      'Amazon S3 answers 403 AccessDenied for a missing key when the caller may not list the bucket; deny-by-default gateways.',
    rules: ['route.404.unknown-path'],
  },
  {
    name: 'unknown-id-200-null',
    layer: 'routing',
    bug: 'Answers 200 with `null` for an id the collection does not hold.',
    seenIn: '`res.json(items.find((i) => i.id === id))` without a not-found branch.',
    rules: ['route.404.unknown-id'],
  },
  {
    name: 'method-404',
    layer: 'routing',
    bug: 'Answers 404 for a known path with an unsupported method, where 405 is due.',
    seenIn:
      'Express and json-server 0.17: a route table keyed by method and path finds nothing and falls through to 404.',
    rules: ['method.405.status'],
  },
  {
    name: 'method-no-allow',
    layer: 'routing',
    bug: 'Answers 405 without the Allow field RFC 9110 §15.5.6 requires.',
    seenIn: 'Frameworks that raise "method not allowed" without listing the methods.',
    rules: ['method.405.allow'],
  },
  {
    name: 'allow-lists-all-methods',
    layer: 'routing',
    bug: 'Sends a fixed Allow listing every method, the refused one included.',
    seenIn: 'A constant `Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS` copied from CORS settings.',
    rules: ['method.405.allow-excludes'],
  },
  // -------------------------------------------------------------------------------------------- success statuses
  {
    name: 'post-201',
    layer: 'success statuses',
    bug: 'Answers 201 Created to a successful POST; the seed (§4 rule 2) says 200.',
    seenIn: "json-server's own HTTP layer; most REST scaffolding.",
    rules: ['success.200.post'],
  },
  {
    name: 'put-204',
    layer: 'success statuses',
    bug: 'Answers 204 No Content to a successful PUT; the seed (§4 rule 2) says 200.',
    seenIn: 'ASP.NET Core Web API scaffolding (`return NoContent()` from PUT); many REST guides.',
    rules: ['success.200.put'],
  },
  {
    name: 'delete-204',
    layer: 'success statuses',
    bug: 'Answers 204 No Content to a successful DELETE; the seed (§4 rule 2) says 200.',
    seenIn: 'ASP.NET Core Web API scaffolding (`return NoContent()`), Rails scaffolds (`head :no_content`).',
    rules: ['success.200.delete'],
  },
  // ------------------------------------------------------------------------------------------------------ errors
  {
    name: 'public-authorization-500',
    layer: 'errors',
    bug: 'Parses an Authorization header on public routes too ("optional authentication") and crashes (500) when it is malformed.',
    seenIn: 'Optional-auth middleware that decodes any header present without handling bad input.',
    rules: ['fuzz.public.junk-authorization'],
  },
  {
    name: 'errors-as-200',
    layer: 'errors',
    bug: 'Answers unexpected conditions with 200 and an `{"error": …}` body instead of 500.',
    seenIn: 'RPC-style APIs that always answer 200 and put the outcome in the body.',
    rules: ['server.500.fault'],
    needs: ['fault'],
  },
  {
    name: 'stack-trace-in-500',
    layer: 'errors',
    bug: "Writes the error's stack trace into the 500 body.",
    seenIn: "Express's default error handler outside production; json-server 0.17.",
    rules: ['server.500.no-stack'],
    needs: ['fault'],
  },
  {
    name: 'problem-status-string',
    layer: 'errors',
    bug: 'Writes the problem+json `status` member as a string ("401"); RFC 9457 §3.1.2 makes it the number of the HTTP status.',
    seenIn: 'Error bodies built from templates or from string status fields.',
    rules: ['problem.status-matches'],
  },
  // ----------------------------------------------------------------------------------------------- rate limiting
  {
    name: 'no-rate-limit',
    layer: 'rate limiting',
    bug: 'Never rate-limits: a client may send any number of requests.',
    seenIn: 'A limiter configured but never mounted, or disabled "temporarily".',
    rules: ['ratelimit.429.exceeded'],
    needs: ['rateLimit'],
  },
  {
    name: 'retry-after-iso-date',
    layer: 'rate limiting',
    bug: 'Sends Retry-After as an ISO 8601 timestamp (`2026-01-01T00:00:00.000Z`), which is neither delay-seconds nor an HTTP-date (RFC 9110 §10.2.3).',
    seenIn: '`retryAt.toISOString()` where `toUTCString()` or a number of seconds was meant.',
    rules: ['ratelimit.429.retry-after'],
    collateral: ['ratelimit.429.recovery'],
    needs: ['rateLimit'],
  },
  {
    name: 'rate-limit-never-resets',
    layer: 'rate limiting',
    bug: 'Keeps counting across windows: once limited, a client stays limited, whatever Retry-After said.',
    seenIn: 'Fixed-window counters kept with Redis `INCR` and no `EXPIRE`.',
    rules: ['ratelimit.429.recovery'],
    needs: ['rateLimit'],
  },
] as const satisfies readonly DefectSpec[];

export type DefectName = (typeof DEFECTS)[number]['name'];

export const DEFECT_NAMES: readonly DefectName[] = DEFECTS.map((d) => d.name);

/** The entry of a name, or undefined; names are exact (kebab-case, lower case). */
export function defectByName(name: string): DefectSpec | undefined {
  return (DEFECTS as readonly DefectSpec[]).find((d) => d.name === name);
}

/** Rules a catalogue cannot have killed by any defect, with the reason; shown in the matrix as unproven. */
export const UNPROVEN: Readonly<Record<string, string>> = {
  'info.order-of-checks':
    'INFO rule: it reports which check the target makes first and never fails, whatever the target does.',
  'jwt.attack.iat-future':
    'INFO rule: no RFC forbids accepting a token "issued" in the future; the rule reports and never fails.',
  'authz.403.reauth-fresh':
    'Tells a conformant target from a broken one only by state carried between two freshly minted tokens of one identity; ' +
    'every stateless bug that lets the second token in lets the first in too (authz.403.lacking-role then fails and this rule skips). ' +
    'A stateful defect would make other checks of the same run pass or fail by test scheduling, so its kill could not be asserted.',
};
