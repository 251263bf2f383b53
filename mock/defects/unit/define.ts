/**
 * What a defect mode is: one declared object — its name, the layer it sits in, the bug, where such a bug has
 * been seen, and its behaviour as a hook on one of five seams (docs/defects.md, "Adding a defect"). Each
 * defect lives in its own file under mock/defects/<layer>/ and is listed once in mock/defects/registry.ts.
 * The mock knows nothing of the suite's rules: which rules catch a defect is the mutation tests' business
 * (tests/mutation/expectations/).
 *
 * Every hook runs once, at start-up, and returns the small function(s) that act per request; a mock with no
 * defect on never calls any of them (mock/defects/index.ts).
 */
import type { JSONWebKeySet, JWTPayload, ProtectedHeaderParameters } from 'jose';
import type { IdentityStore } from '../../auth/identity-store.ts';
import type { Authenticator, AuthResult, AuthSettings, Identity, Scheme } from '../../auth/types.ts';
import type { MockConfig } from '../../config.ts';
import type { Reply } from '../../http/reply.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { ResourceEngine } from '../../resources/types.ts';
import type { Router } from '../../routing/router.ts';

/** Where the bug sits, for grouping in `--list-defects` and docs/defects.md. */
export type DefectLayer =
  | 'header parsing'
  | 'credentials'
  | 'bearer tokens'
  | 'authorization'
  | 'access control'
  | 'request bodies'
  | 'challenges'
  | 'routing'
  | 'success statuses'
  | 'errors'
  | 'rate limiting';

/** A mock feature the defect acts on; whoever runs the defect must configure it (e.g. a fault trigger). */
export type DefectNeed = 'rateLimit' | 'fault';

// ------------------------------------------------------------------------------------ seam: the configuration

/**
 * The configuration the defective server runs with; applied once, before the app is built. Which defects are
 * on is not the hook's to change (leaving `defects` out also keeps the declarations' types acyclic).
 */
export type DefectSettings = Omit<MockConfig, 'defects'>;
export type SettingsHook = (config: DefectSettings) => DefectSettings;

// ------------------------------------------------------------------------------------ seam: the authenticator

export type AuthFailureResult = Extract<AuthResult, { ok: false }>;
/** The single Authorization field line as parsed (RFC 9110 §11.4), or undefined (none, several, malformed). */
export type ParsedCredentials =
  | { readonly scheme: string; readonly credentials: string | undefined }
  | undefined;

/** The request as the authenticator is about to see it; a `before` step may change it. */
export interface AuthRequest {
  values: readonly string[];
  accepted: readonly Scheme[];
}

/** Every role and scope the policy asks for: what an identity that skips authorization effectively holds. */
export interface Grants {
  readonly roles: readonly string[];
  readonly scopes: readonly string[];
}

export interface AuthenticatorContext {
  readonly settings: AuthSettings;
  readonly router: Router;
  /** The identities file, loaded once on first use. */
  identities(): Promise<IdentityStore>;
  readonly grants: Grants;
}

/**
 * The authenticator wrapped around the real one (mock/auth/authenticator.ts), in three steps:
 *   before — changes the request's view of the header, or answers before the real authenticator runs;
 *   rescue — an identity for a credential the real authenticator refused (undefined: stays refused);
 *   after  — the result for an identity the real authenticator (or a rescue) accepted.
 */
export interface AuthenticatorHook {
  readonly before?: (request: AuthRequest) => Promise<AuthResult | undefined> | AuthResult | undefined;
  readonly rescue?: (
    parsed: ParsedCredentials,
    failure: AuthFailureResult,
    now: number,
  ) => Promise<Identity | undefined> | Identity | undefined;
  readonly after?: (parsed: ParsedCredentials, identity: Identity, now: number) => AuthResult;
}

// ---------------------------------------------------------------------------------- seam: the Bearer verifier

export interface JwtContext {
  readonly settings: AuthSettings;
  readonly jwks: JSONWebKeySet;
}

/** A token the lenient verifier is looking at: compact serialization split, protected header decoded. */
export interface TokenView {
  readonly token: string;
  readonly parts: readonly string[];
  readonly header: ProtectedHeaderParameters;
  /** `header.alg` when it is a string, else ''. */
  readonly alg: string;
}

/** The claim checks of RFC 7519 §4.1.1, §4.1.3–5 the lenient verifier makes (exp and sub stay required). */
export type ClaimCheck = 'iss' | 'aud' | 'exp' | 'nbf';

/**
 * One check of the Bearer verifier undone (mock/defects/seams/jwt-verifier.ts). The lenient verifier is asked
 * only about tokens the real verifier refused; every hook *adds* a way to pass, and every check no hook
 * touches stays as strict as the real one (RFC 7519 §7.2, RFC 7515 §5.2, RFC 8725).
 */
export interface JwtHook {
  /** Rewrites the received token before it is parsed (undefined: refused). */
  readonly token?: (received: string) => string | undefined;
  /** Accepts the signature by other means than the JWKS (alg none, a key the token offers…). */
  readonly signature?: (view: TokenView) => boolean | Promise<boolean>;
  /** Accepts a claim the real check refuses. */
  readonly claims?: Partial<Record<ClaimCheck, (payload: JWTPayload, now: number) => boolean>>;
}

// ------------------------------------------------------------------------------------------ seam: the replies

export interface ReplyContext {
  readonly realm: string;
  /** The (possibly defective) authenticator, for the defects that authenticate on public routes. */
  readonly authenticator: Authenticator;
  /** The compiled policy, for the defects that route a path the conformant router does not. */
  readonly router: Router;
  /**
   * The handler stage itself (stage 8): the answer the exchange's route and rule get once every check has
   * passed — for the defects that serve, or store, what an earlier stage refused.
   */
  readonly serve: (exchange: Exchange) => Reply | Promise<Reply>;
  /** The data, for the defects that store something else than what the handler stored. */
  readonly engine: ResourceEngine;
}

/** A reply in, the defective reply out; it reads what the stages recorded on the exchange. */
export type Rewrite = (reply: Reply, exchange: Exchange) => Reply | Promise<Reply>;

/**
 * Wraps the composed pipeline (mock/pipeline/compose.ts): `rewrite` changes each reply; `render` is how the
 * defective server renders an exception the pipeline threw (the first defect on with a `render` wins).
 */
export interface ReplyHook {
  readonly rewrite?: Rewrite;
  readonly render?: (error: unknown) => Reply;
}

// ------------------------------------------------------------------------------------------------ seam: the data

/**
 * The resource engine the handler reads and writes through (mock/resources/types.ts), wrapped: for the defects
 * of what a write does to the data, whatever it answers. The wrapper keeps every method it does not change.
 */
export type EngineHook = (engine: ResourceEngine) => ResourceEngine;

// ------------------------------------------------------------------------------------------------ the defect

export interface DefectHooks {
  readonly settings?: SettingsHook;
  readonly authenticator?: (context: AuthenticatorContext) => AuthenticatorHook | Promise<AuthenticatorHook>;
  readonly jwt?: (context: JwtContext) => JwtHook | Promise<JwtHook>;
  readonly reply?: (context: ReplyContext) => ReplyHook;
  readonly engine?: EngineHook;
}

export interface Defect<Name extends string = string> {
  /** Stable kebab-case name: `--defect <name>`, the config's `defects`, the mutation tests use it. */
  readonly name: Name;
  readonly layer: DefectLayer;
  /** What the mock does wrong, in one or two sentences. */
  readonly bug: string;
  /** Realistic implementations known to have shipped it, or the code pattern that produces it. */
  readonly seenIn: string;
  readonly needs?: readonly DefectNeed[];
  /** Its behaviour: at least one seam. */
  readonly hooks: DefectHooks;
}

/** Declares a defect; the literal name is kept, so the registry's list gives the `DefectName` union. */
export function defineDefect<const Name extends string>(defect: Defect<Name>): Defect<Name> {
  if (Object.keys(defect.hooks).length === 0) throw new TypeError(`defect ${defect.name} hooks no seam`);
  return Object.freeze(defect);
}
