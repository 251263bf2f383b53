/**
 * The stand-in feature's builder (`--openapi <file|url>`, docs/mock.md "Standing in for your own API"): the
 * document read with init's reader and reading (read.ts, cli/init/security.ts, operations.ts, servers.ts),
 * compiled into what the pipeline's stages need — a router of its path templates, the credentials stage of its
 * security, a handler answering as its responses say, the token endpoint and JWKS of its OAuth flows, its own
 * `/openapi.json` — and the identities the mock issues, with their credentials under init's variable names.
 */
import { readFile } from 'node:fs/promises';
import type { JSONWebKeySet } from 'jose';
import { type Operation as DocOperation, readOperations } from '../../cli/init/operations.ts';
import { readCarriers, requirementsOf } from '../../cli/init/security.ts';
import {
  type CredentialVariable,
  identityVariables,
  JWT_PRIVATE_JWK_VARIABLE,
} from '../../shared/credential-env.ts';
import { X_BLOCKED, X_FAULT, X_RATE_LIMIT } from '../../shared/openapi-extensions.ts';
import type { RateLimitFile } from '../access/rate-limit-settings.ts';
import type { AccessSettings } from '../access/settings.ts';
import { createBearerVerifier } from '../auth/bearer.ts';
import type { Authenticator, AuthSettings } from '../auth/types.ts';
import { JWKS_PATH } from '../oauth/endpoint.ts';
import { createIssuer } from '../oauth/issue.ts';
import type { OAuthSettings } from '../oauth/settings.ts';
import { blockedOf, jwtOf } from '../openapi/extensions.ts';
import type { Stage } from '../pipeline/exchange.ts';
import type { AccessRule, Operation, Router } from '../routing/router.ts';
import { ConfigError } from '../util/config-error.ts';
import { compileAccess } from './access.ts';
import type { StandInSummary } from './banner.ts';
import { readCollections } from './collections.ts';
import { standInCredentials } from './credentials-stage.ts';
import { declaresRateLimit } from './declared-limit.ts';
import { standInDocument } from './document.ts';
import { blockedAccess, closedOperation, documentFault } from './extensions.ts';
import { standInHandler } from './handler.ts';
import { issueIdentities, markedAdmin, protectedPick, type StandInIdentity } from './identities.ts';
import { isJsonType, mediaTypesOf } from './media.ts';
import { planOperations } from './plans.ts';
import { readStandInDocument } from './read.ts';
import { compileTemplates } from './router.ts';
import { dialectOf } from './schema-dialect.ts';
import { readDocumentSchemes } from './schemes.ts';
import { seeder } from './seeds.ts';
import { prefixOf, prefixOfOperation, servedTemplate } from './served-paths.ts';
import { StandInStore } from './store.ts';
import { type BesideEndpoint, standInTokenEndpoint } from './token.ts';
import { type Unvalidated, unvalidatedOperations } from './unvalidated.ts';
import { createDocumentVerifier } from './verify.ts';

type Json = Record<string, unknown>;

export interface StandInOptions {
  /** The document: a file or an http(s) URL. */
  readonly source: string;
  readonly realm: string;
  readonly auth: AuthSettings;
  readonly oauth: OAuthSettings;
  readonly maxBodyBytes: number;
  /** The mock's block lists, to which the document's `x-gatecheck-blocked` clients are added. */
  readonly access: AccessSettings;
  /** Whether this listener honours the fault header (the served document then says so). */
  readonly faultHeader: boolean;
}

export interface StandIn {
  readonly router: Router;
  readonly credentials: Stage;
  /** The credentials stage with Bearer JWTs verified by `authenticator` (the mock's, wrapped by its defects). */
  credentialsWith(authenticator: Authenticator): Stage;
  readonly handler: Stage;
  /** The token endpoint and JWKS, and `/openapi.json`: public, beside the pipeline. */
  readonly beside: readonly BesideEndpoint[];
  readonly identities: readonly StandInIdentity[];
  /** The block lists with the document's `x-gatecheck-blocked` clients (extensions.ts). */
  readonly access: AccessSettings;
  /** The document's `x-gatecheck-rate-limit` as the mock's rate-limit settings, when it states one. */
  readonly rateLimit: RateLimitFile | undefined;
  /** The document declares a limit of its own (429s, rate-limit header fields): the mock's default one applies. */
  readonly declaresLimit: boolean;
  /** The document's operations served. */
  readonly operations: number;
  /** Operations whose request body the mock does not check, and why (the banner lists them). */
  readonly unvalidated: readonly Unvalidated[];
  /** What the banner says of the document: how to send each scheme, admin-only operations, logins (banner.ts). */
  readonly summary: StandInSummary;
  /** Every identity's credentials under the names `gatecheck init` writes for this document. */
  environment(now: number): Promise<CredentialVariable[]>;
  reset(): Promise<void>;
}

const OPERATION: Readonly<Record<string, Operation>> = {
  get: 'read',
  post: 'create',
  put: 'replace',
  patch: 'patch',
  delete: 'remove',
};

/** Printed Bearer tokens outlive a working day of runs against a mock started later (30 days). */
const PRINTED_TOKEN_SECONDS = 30 * 24 * 3600;

/** `x-gatecheck-rate-limit` (docs/package.md "What a document can add") → the mock's rate-limit group. */
function rateLimitOf(doc: Json, prefix: string): RateLimitFile | undefined {
  const x = doc[X_RATE_LIMIT];
  if (typeof x !== 'object' || x === null) return undefined;
  const { limit, windowSeconds, key, banAfter, banSeconds, path, method } = x as Json;
  if (!Number.isInteger(limit) || typeof windowSeconds !== 'number' || windowSeconds <= 0) return undefined;
  const keys: Record<string, 'address' | 'identity' | 'route'> = {
    address: 'address',
    identity: 'identity',
    credential: 'identity',
    endpoint: 'route',
  };
  const group = {
    limit: limit as number,
    windowSeconds,
    ...(typeof key === 'string' && keys[key] !== undefined ? { key: keys[key] } : {}),
    ...(Number.isInteger(banAfter) ? { banAfter: banAfter as number } : {}),
    ...(typeof banSeconds === 'number' ? { banSeconds } : {}),
  };
  if (typeof path !== 'string') return { groups: { default: group } };
  const verb = typeof method === 'string' ? method.toUpperCase() : 'GET';
  return { groups: { document: group }, routes: { [`${verb} ${prefix}${path}`]: 'document' } };
}

/** The private JWK the mock signs with for `alg` (its issuer's set, mock/oauth/issue.ts), or undefined. */
async function signingKeyOf(path: string, alg: string | undefined): Promise<Json | undefined> {
  const set = JSON.parse(await readFile(path, 'utf8')) as { keys?: Json[] };
  return (set.keys ?? []).find((k) => alg === undefined || k.alg === alg);
}

/** The example a success answer documents in JSON (OpenAPI 3.1 §4.8.14 `example`, `examples`), if any. */
function documentedAnswer(op: DocOperation): unknown {
  const responses = op.raw.responses as Json | undefined;
  const code = Object.keys(responses ?? {})
    .filter((c) => /^2\d\d$/.test(c))
    .sort()[0];
  const response = code === undefined ? undefined : (responses?.[code] as Json | undefined);
  const media = mediaTypesOf(response?.content).find((m) => isJsonType(m.type));
  if (media === undefined) return undefined;
  if (media.media.example !== undefined) return media.media.example;
  const examples = media.media.examples as Json | undefined;
  const first = Object.values(examples ?? {}).find(
    (e) => typeof e === 'object' && e !== null && 'value' in e,
  );
  return first === undefined ? media.schema?.example : (first as Json).value;
}

export async function buildStandIn(options: StandInOptions): Promise<StandIn> {
  const doc = await readStandInDocument(options.source);
  const schemes = readDocumentSchemes(doc, options.realm);
  // init's reading of who may call what (its `access`) feeds the identities' grants (identities.ts).
  const carriers = readCarriers(doc);
  const ops = readOperations(doc, undefined, carriers, carriers);
  if (ops.length === 0) throw new ConfigError(`--openapi: ${options.source} defines no operation to serve`);
  const prefix = prefixOf(doc);
  const opPrefix = (op: DocOperation) => prefixOfOperation(op, doc, prefix);
  const templateOf = servedTemplate(doc);
  const dialect = dialectOf(doc);
  const collections = readCollections(doc, ops, templateOf, documentedAnswer);
  const plans = planOperations(doc, ops, templateOf, collections, dialect);

  const byTemplate = new Map<string, Map<string, AccessRule>>();
  const needs = [];
  // The administrator's operations are kept to the admin — but not the read init picks for its user (the
  // only addressable one may carry an administrator's tag, as Keycloak's `GET /` "Realms Admin" does).
  const userRead = protectedPick(doc, ops);
  const closed = closedOperation(doc);
  for (const op of ops) {
    const requirements = requirementsOf(doc, op.raw);
    const plan = plans.get(op);
    const compiled = compileAccess(
      requirements,
      schemes,
      OPERATION[op.method] as Operation,
      { plan },
      op !== userRead && markedAdmin(op),
    );
    // x-gatecheck-blocked's closed operation: 403 to every client (mock/pipeline/block-lists.ts).
    const rule =
      closed?.path === op.path && closed.method === op.method.toUpperCase()
        ? { ...compiled, closed: true }
        : compiled;
    needs.push({ op, sets: rule.alternatives.map((a) => a.needs) });
    const template = `${opPrefix(op)}${op.path}`;
    const rules = byTemplate.get(template) ?? new Map<string, AccessRule>();
    rules.set(op.method.toUpperCase(), rule);
    byTemplate.set(template, rules);
  }
  const router = compileTemplates(
    [...byTemplate].map(([template, rules]) => ({ template, resource: template, rules })),
  );
  const rateLimit = rateLimitOf(doc, prefix);
  const access = blockedAccess(doc, options.access);
  const identities = issueIdentities(doc, needs, schemes, rateLimit !== undefined);

  const jwks = JSON.parse(await readFile(options.auth.jwksPath, 'utf8')) as JSONWebKeySet;
  const { issuer, audience } = options.auth;
  const bearer = createBearerVerifier({
    jwks,
    issuer,
    audience,
    algorithms: options.auth.algorithms,
    clockToleranceSeconds: options.auth.clockToleranceSeconds,
    cacheSize: options.auth.cacheSize,
  });
  const issue = await createIssuer({
    signingKeysPath: options.oauth.signingKeysPath,
    issuer,
    audience,
    lifetimeSeconds: options.oauth.tokenLifetimeSeconds,
  });
  const store = new StandInStore(seeder(dialect));
  const token = await standInTokenEndpoint({
    identities,
    issue,
    jwksPath: options.auth.jwksPath,
    realm: options.realm,
    maxBodyBytes: options.maxBodyBytes,
  });
  const kinds = new Set([...schemes.values()].map((s) => s.kind));
  const hasLogin = [...plans.values()].some((p) => p.role === 'login');
  // Listed on first need (the banner, after listening): checking every body's schema loads Ajv (≈ 0.5 s).
  let unvalidated: Unvalidated[] | undefined;
  const listUnvalidated = () => {
    unvalidated ??= unvalidatedOperations(ops, plans);
    return unvalidated;
  };
  const flow = [...schemes.values()].find((s) => s.flow !== undefined)?.flow;

  return {
    router,
    credentials: standInCredentials(createDocumentVerifier(identities, bearer)),
    credentialsWith: (authenticator) =>
      standInCredentials(createDocumentVerifier(identities, bearer, authenticator)),
    handler: standInHandler({
      store,
      maxBodyBytes: options.maxBodyBytes,
      fault: documentFault(doc, prefix),
      identities,
      // A login's answer carries a credential the operations accept: the identity's key, else a token.
      async credentialOf(id, now) {
        if (kinds.has('key')) return id.apikey;
        if (kinds.has('jwt'))
          return (
            await issue({ sub: id.name, roles: id.roles, scopes: id.grants, clientId: id.clientId }, now)
          ).token;
        return undefined;
      },
    }),
    beside: [
      token,
      standInDocument(
        doc,
        prefix,
        {
          extension: await jwtOf(options.auth, JWKS_PATH),
          schemes: [...schemes.values()].filter((s) => s.kind === 'jwt').map((s) => s.name),
        },
        {
          blocked: doc[X_BLOCKED] === undefined ? blockedOf(access, { routes: [] }) : undefined,
          fault:
            doc[X_FAULT] === undefined && options.faultHeader
              ? { headers: { 'X-Gatecheck-Fault': '500' } }
              : undefined,
        },
      ),
    ],
    identities,
    access,
    rateLimit,
    declaresLimit: declaresRateLimit(doc),
    operations: ops.length,
    async environment(now) {
      const printed = await createIssuer({
        signingKeysPath: options.oauth.signingKeysPath,
        issuer,
        audience,
        lifetimeSeconds: PRINTED_TOKEN_SECONDS,
      });
      const out: CredentialVariable[] = [];
      for (const id of identities) {
        const credentials: Json = {};
        if (kinds.has('jwt')) {
          credentials.bearer = (
            await printed({ sub: id.name, roles: id.roles, scopes: id.grants, clientId: id.clientId }, now)
          ).token;
          if (flow !== undefined)
            credentials.token = {
              oauth2: {
                clientId: id.clientId,
                clientSecret: id.clientSecret,
                ...(flow.grant === 'password' ? { username: id.username, password: id.password } : {}),
              },
            };
        }
        // A login operation (login.ts) takes the user name and password: printed where one exists.
        if (kinds.has('basic') || hasLogin)
          credentials.basic = { username: id.username, password: id.password };
        if (kinds.has('key')) credentials.apikey = id.apikey;
        out.push(...identityVariables(id.name, credentials));
      }
      // The test issuer's private key, as the default mock prints it (mock/cli/environment.ts): the profile's
      // jwt.privateJwk, for the suite to mint the tokens of the JWT rules (its x-gatecheck-jwt names the rest).
      if (kinds.has('jwt')) {
        const key = await signingKeyOf(options.oauth.signingKeysPath, options.auth.algorithms[0]);
        if (key !== undefined) out.push({ name: JWT_PRIVATE_JWK_VARIABLE, value: JSON.stringify(key) });
      }
      return out;
    },
    get unvalidated() {
      return listUnvalidated();
    },
    get summary() {
      return {
        schemes: [...schemes.values()],
        identities,
        adminOnly: ops
          .filter((op) => op !== userRead && markedAdmin(op))
          .map((op) => `${op.method.toUpperCase()} ${templateOf(op)}`),
        logins: [...plans.values()].filter((p) => p.role === 'login').map((p) => `${p.method} ${p.template}`),
        unvalidated: listUnvalidated(),
      };
    },
    async reset() {
      store.reset();
    },
  };
}
