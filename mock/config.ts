/**
 * The mock's configuration: its type, its defaults, and `loadConfig`, which reads an optional JSON file,
 * validates it against fixtures/schemas/mock-config.schema.json (unknown keys refused) and merges it over the
 * defaults. A bad file is refused with ONE line naming the field and what is expected; the CLI prints that
 * line and exits 2.
 */

import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { FIXTURES_DIR, SCHEMAS_DIR } from '../shared/paths.ts';
import type { LimiterStore } from './access/rate-limit.ts';
import {
  DEFAULT_RATE_LIMIT,
  mergeRateLimit,
  type RateLimitFile,
  type RateLimitSettings,
} from './access/rate-limit-settings.ts';
import { DEFAULT_STORE, mergeStore, type StoreSettings } from './access/rate-limit-store.ts';
import { type AccessSettings, DEFAULT_ACCESS, mergeAccess } from './access/settings.ts';
import type { Authenticator, AuthSettings } from './auth/types.ts';
import { type ControlFile, type ControlSettings, DEFAULT_CONTROL, mergeControl } from './control/settings.ts';
import { DEFAULT_FAULTS, type FaultFile, type FaultSettings, mergeFaults } from './faults/settings.ts';
import { defaultOAuth, mergeOAuth, type OAuthFile, type OAuthSettings } from './oauth/settings.ts';
import type { ResourceEngine } from './resources/types.ts';
import type { Policy } from './routing/policy.ts';

import { ConfigError } from './util/config-error.ts';
import { readJsonFile } from './util/read-json.ts';
import { validateWithSchema } from './util/validate-with-schema.ts';

// Re-exported for the CLI, the benches and tests, which read the configuration's neighbours from here.
export { FIXTURES_DIR, PACKAGE_ROOT } from '../shared/paths.ts';
export { ConfigError } from './util/config-error.ts';

const CONFIG_SCHEMA = resolve(SCHEMAS_DIR, 'mock-config.schema.json');

/** Server-level protections against slow, oversized or ill-framed requests (node:http options, the Host lines). */
export interface ServerLimits {
  /** Time allowed to receive the complete header block (slowloris); Node answers 408 after it. */
  readonly headersTimeoutMs: number;
  /** Time allowed to receive the complete request, body included. */
  readonly requestTimeoutMs: number;
  /** Idle time before a keep-alive connection is closed. */
  readonly keepAliveTimeoutMs: number;
  /** Largest header block accepted; larger gets 431. */
  readonly maxHeaderBytes: number;
  /**
   * RFC 9112 §3.2: 400 for a request with more than one Host line or a Host value that is not
   * uri-host [ ":" port ] (mock/http/host.ts). false: Node's own leniency, the first line and any value (a
   * missing Host is refused either way).
   */
  readonly strictHost: boolean;
}

export interface MockConfig {
  /** Seed data json-server serves (fixtures/db.json); read at start, never written. */
  readonly dataPath: string;
  /** When set, state is kept in this file (created from the seed when absent) instead of in memory. */
  readonly persistPath: string | undefined;
  /** The access policy file (fixtures/policy.json); ignored when `policy` is given inline. */
  readonly policyPath: string;
  /** An inline policy, validated like the file. */
  readonly policy: Policy | undefined;
  /**
   * An OpenAPI document (a file or an http(s) URL) to stand in for, instead of the policy and the data
   * (`--openapi`, mock/standin/, docs/mock.md "Standing in for your own API").
   */
  readonly openapi: string | undefined;
  /** The realm of every WWW-Authenticate challenge (RFC 9110 §11.5). */
  readonly realm: string;
  /** Largest JSON body accepted on writes; larger gets 413. */
  readonly maxBodyBytes: number;
  readonly server: ServerLimits;
  readonly auth: AuthSettings;
  /**
   * The base clock, in epoch milliseconds (injectable for tests). The mock reads it through mock/clock.ts,
   * shifted by `clockOffsetSeconds` and by the control API; that reading is the authenticator's `now`.
   */
  readonly clock: () => number;
  /** Shifts the mock's clock from `clock` at start-up (and after a control API reset). */
  readonly clockOffsetSeconds: number;
  /** Block lists (403): trusted proxies, blocked CIDR ranges, blocked countries (mock/access). */
  readonly access: AccessSettings;
  /** Rate limiting (429, then a 403 ban), per route group (mock/access/rate-limit.ts). */
  readonly rateLimit: RateLimitSettings;
  /**
   * Where the rate-limit counters live (programmatic only): default in memory; a store built on
   * rate-limiter-flexible's RateLimiterRedis shares them between mock instances (docs/mock.md).
   */
  readonly rateLimitStore: LimiterStore | undefined;
  /** Where the rate limiter keeps counts and bans: memory, or a Redis shared by several instances (docs/mock.md). */
  readonly store: StoreSettings;
  /** Fault injection (500, latency, dropped connections; mock/faults). */
  readonly faults: FaultSettings;
  /** The control API under /__gatecheck/ and its journal (mock/control). */
  readonly control: ControlSettings;
  /**
   * Named defects switched on (mock/defects/registry.ts; `--defect <name>`): realistic bugs for the suite's
   * mutation score. Empty by default, and then the conformant pipeline is built with no defect code in it.
   */
  readonly defects: readonly string[];
  /** The token endpoint and JWKS (mock/oauth): clients, token lifetime, signing keys. */
  readonly oauth: OAuthSettings;
  /** Replaces the authenticator built from `auth` (programmatic only). */
  readonly authenticator: Authenticator | undefined;
  /** Replaces the json-server engine built from `dataPath` / `persistPath` (programmatic only). */
  readonly engine: ResourceEngine | undefined;
  /** Told about every unexpected error that became a 500 (default: one line on stderr, no stack). */
  readonly onError: (error: unknown) => void;
}

/** The JSON file form: every key optional, nested objects partial. */
export interface MockConfigFile {
  readonly $schema?: string;
  readonly dataPath?: string;
  readonly persistPath?: string;
  readonly policyPath?: string;
  readonly policy?: Policy;
  readonly openapi?: string;
  readonly realm?: string;
  readonly maxBodyBytes?: number;
  readonly server?: Partial<ServerLimits>;
  readonly auth?: Partial<AuthSettings>;
  readonly clockOffsetSeconds?: number;
  readonly access?: Partial<AccessSettings>;
  readonly rateLimit?: RateLimitFile;
  readonly store?: Partial<StoreSettings>;
  readonly faults?: FaultFile;
  readonly control?: ControlFile;
  readonly defects?: readonly string[];
  readonly oauth?: OAuthFile;
}

/** What a program may pass on top of the file: the file's keys plus the programmatic-only ones. */
export interface MockConfigOverrides extends Omit<MockConfigFile, '$schema'> {
  readonly clock?: () => number;
  readonly authenticator?: Authenticator;
  readonly engine?: ResourceEngine;
  readonly onError?: (error: unknown) => void;
  readonly rateLimitStore?: LimiterStore;
}

export const DEFAULT_AUTH: AuthSettings = {
  jwksPath: resolve(FIXTURES_DIR, 'keys/jwks.json'),
  identitiesPath: resolve(FIXTURES_DIR, 'identities.json'),
  issuer: 'https://mock.gatecheck.local/',
  audience: 'gatecheck-mock',
  // RFC 8725 §3.1: an explicit allow-list of asymmetric algorithms; never `none`, never HS* beside them.
  algorithms: ['RS256', 'ES256'],
  clockToleranceSeconds: 30,
  cacheSize: 10_000,
};

export const DEFAULT_CONFIG: MockConfig = {
  dataPath: resolve(FIXTURES_DIR, 'db.json'),
  persistPath: undefined,
  policyPath: resolve(FIXTURES_DIR, 'policy.json'),
  policy: undefined,
  openapi: undefined,
  realm: 'gatecheck',
  maxBodyBytes: 100 * 1024,
  server: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    maxHeaderBytes: 16_384,
    strictHost: true,
  },
  auth: DEFAULT_AUTH,
  clock: Date.now,
  clockOffsetSeconds: 0,
  access: DEFAULT_ACCESS,
  rateLimit: DEFAULT_RATE_LIMIT,
  rateLimitStore: undefined,
  store: DEFAULT_STORE,
  faults: DEFAULT_FAULTS,
  control: DEFAULT_CONTROL,
  defects: [],
  oauth: defaultOAuth(FIXTURES_DIR),
  authenticator: undefined,
  engine: undefined,
  onError: (error) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`gatecheck mock: unexpected error answered with 500: ${message}\n`);
  },
};

/**
 * Reads the configuration file (when `path` is given), then applies `overrides`, both validated; relative
 * paths in the file are resolved against the file's folder, relative paths in overrides against the cwd.
 * Throws ConfigError with one line naming the field.
 */
export function loadConfig(path?: string, overrides: MockConfigOverrides = {}): MockConfig {
  let config = DEFAULT_CONFIG;
  if (path !== undefined) {
    const file = resolve(path);
    const parsed = readJsonFile(file, 'config', path);
    validateWithSchema(CONFIG_SCHEMA, parsed, 'config', path);
    config = merge(config, parsed as MockConfigFile, dirname(file));
  }
  const { clock, authenticator, engine, onError, rateLimitStore, ...json } = overrides;
  const defined = Object.fromEntries(Object.entries(json).filter(([, value]) => value !== undefined));
  validateWithSchema(CONFIG_SCHEMA, defined, 'options');
  config = merge(config, defined as MockConfigFile, process.cwd());
  config = {
    ...config,
    clock: clock ?? config.clock,
    authenticator: authenticator ?? config.authenticator,
    engine: engine ?? config.engine,
    onError: onError ?? config.onError,
    rateLimitStore: rateLimitStore ?? config.rateLimitStore,
  };
  // Node refuses a request timeout shorter than the headers timeout; say so in our words, at start-up.
  if (config.server.requestTimeoutMs < config.server.headersTimeoutMs) {
    throw new ConfigError(
      `config.server.requestTimeoutMs: must be at least server.headersTimeoutMs (${config.server.headersTimeoutMs})`,
    );
  }
  checkPersistPath(config);
  if (config.store.type === 'redis' && config.store.redisUrl === undefined) {
    throw new ConfigError('config.store.redisUrl (--redis-url): required when store.type is redis');
  }
  return config;
}

/** The mock never writes into fixtures/ (docs/design.md "Resources"): persistence goes elsewhere. */
function checkPersistPath(config: MockConfig): void {
  const target = config.persistPath;
  if (target === undefined) return;
  if (target === config.dataPath) {
    throw new ConfigError(
      'config.persistPath (--data): must not be the seed data file; the seed is never written',
    );
  }
  const inside = relative(FIXTURES_DIR, target);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) {
    throw new ConfigError(
      `config.persistPath (--data): must be outside ${FIXTURES_DIR}; the mock never writes there`,
    );
  }
}

function merge(base: MockConfig, file: MockConfigFile, baseDir: string): MockConfig {
  const at = (p: string): string => (isAbsolute(p) ? p : resolve(baseDir, p));
  const auth: AuthSettings = {
    ...base.auth,
    ...file.auth,
    jwksPath: file.auth?.jwksPath === undefined ? base.auth.jwksPath : at(file.auth.jwksPath),
    identitiesPath:
      file.auth?.identitiesPath === undefined ? base.auth.identitiesPath : at(file.auth.identitiesPath),
  };
  return {
    ...base,
    dataPath: file.dataPath === undefined ? base.dataPath : at(file.dataPath),
    persistPath: file.persistPath === undefined ? base.persistPath : at(file.persistPath),
    policyPath: file.policyPath === undefined ? base.policyPath : at(file.policyPath),
    policy: file.policy ?? base.policy,
    // A URL is read as it is; a file is resolved like the other paths.
    openapi:
      file.openapi === undefined
        ? base.openapi
        : /^https?:\/\//i.test(file.openapi)
          ? file.openapi
          : at(file.openapi),
    realm: file.realm ?? base.realm,
    maxBodyBytes: file.maxBodyBytes ?? base.maxBodyBytes,
    server: { ...base.server, ...file.server },
    auth,
    clockOffsetSeconds: file.clockOffsetSeconds ?? base.clockOffsetSeconds,
    access: mergeAccess(base.access, file.access),
    rateLimit: mergeRateLimit(base.rateLimit, file.rateLimit),
    store: mergeStore(base.store, file.store),
    faults: mergeFaults(base.faults, file.faults),
    control: mergeControl(base.control, file.control),
    defects: file.defects ?? base.defects,
    oauth: mergeOAuth(base.oauth, file.oauth, baseDir),
  };
}
