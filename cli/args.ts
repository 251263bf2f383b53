/**
 * Command-line parsing (node:util parseArgs) into a Command. Every mistake becomes a UsageError whose
 * message names the flag and what is expected; nothing here touches the network or the filesystem.
 */

import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { looksLikeKeyMaterial, shownValue } from './attest/key-material.ts';
import { type KeySource, parseKeySource } from './attest/key-source.ts';
import type { KeygenOptions } from './attest/keygen-command.ts';
import type { VerifyOptions } from './attest/verify-command.ts';
import { UsageError } from './exit-codes.ts';
import { GATE_FLAGS, type GateFlags, gateFlagsOf, refuseGateOnShard } from './gate-options.ts';
import type { InitOptions } from './init/command.ts';

export interface RunOptions {
  readonly baseUrl?: string;
  readonly profile?: string;
  /** Absolute path of a PEM CA file the target's certificate chains to (over the profile's tls.ca). */
  readonly caCert?: string;
  readonly strict: boolean;
  /** --max-skipped-must: most MUST rules that may go unchecked (skipped or not run) in a passing run. */
  readonly maxSkippedMust?: number;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly seed?: number;
  readonly budget?: number;
  /** --max-duration in seconds: the fuzz cases are sized so the run fits it at the declared limit's pace. */
  readonly maxDuration?: number;
  /** Absolute. */
  readonly reportDir: string;
  readonly shard?: { readonly current: number; readonly total: number };
  /** Arguments after `--`, handed to `playwright test` unchanged. */
  readonly passthrough: readonly string[];
  /** --sign-key: sign the report at the end of the run (cli/attest); a file (absolute) or env:NAME. */
  readonly signKey?: KeySource;
  /** --waivers, --baseline, --strict-waivers: the CI gate (cli/gate-options.ts). */
  readonly gate?: GateFlags;
}

/** `gatecheck check` (cli/check.ts). */
export interface CheckOptions {
  /** Absolute. */
  readonly profile: string;
  readonly baseUrl?: string;
  readonly probe: boolean;
}

export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'list-rules'; readonly profile?: string }
  | { readonly kind: 'check'; readonly options: CheckOptions }
  | { readonly kind: 'rules'; readonly format: 'text' | 'markdown' | 'json' }
  | { readonly kind: 'run'; readonly options: RunOptions }
  | { readonly kind: 'merge'; readonly blobDir: string; readonly options: RunOptions }
  | { readonly kind: 'init'; readonly options: InitOptions }
  | { readonly kind: 'verify'; readonly options: VerifyOptions }
  | { readonly kind: 'keygen'; readonly options: KeygenOptions }
  | { readonly kind: 'gate'; readonly report: string };

const RUN_FLAGS = {
  'base-url': { type: 'string' },
  profile: { type: 'string', short: 'p' },
  'ca-cert': { type: 'string' },
  strict: { type: 'boolean' },
  'max-skipped-must': { type: 'string' },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  seed: { type: 'string' },
  budget: { type: 'string' },
  'max-duration': { type: 'string' },
  'report-dir': { type: 'string' },
  shard: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  'list-rules': { type: 'boolean' },
  'sign-key': { type: 'string' },
  ...GATE_FLAGS,
} as const;

const VERIFY_FLAGS = {
  key: { type: 'string' },
  report: { type: 'string' },
  'allow-other-catalogue': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const KEYGEN_FLAGS = {
  out: { type: 'string', short: 'o' },
  type: { type: 'string' },
  format: { type: 'string' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const INIT_FLAGS = {
  out: { type: 'string', short: 'o' },
  force: { type: 'boolean' },
  probe: { type: 'string' },
  writes: { type: 'boolean' },
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const CHECK_FLAGS = {
  profile: { type: 'string', short: 'p' },
  'base-url': { type: 'string' },
  probe: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `playwright test`'s own options: given before `--`, the one line says where they go (issue #40).
 * (--shard is the CLI's own.)
 */
const PLAYWRIGHT_OPTIONS = new Set([
  '--reporter',
  '--workers',
  '-j',
  '--grep',
  '-g',
  '--grep-invert',
  '-G',
  '--project',
  '--headed',
  '--debug',
  '--retries',
  '--timeout',
  '--trace',
  '--repeat-each',
  '--max-failures',
  '-x',
  '--list',
  '--ui',
  '--quiet',
  '--update-snapshots',
  '-u',
  '--pass-with-no-tests',
  '--forbid-only',
  '--fully-parallel',
  '--global-timeout',
  '--output',
  '--config',
  '-c',
  '--last-failed',
  '--only-changed',
  '--tsconfig',
  '--browser',
  '--ignore-snapshots',
]);

const RULES_FLAGS = {
  markdown: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `gatecheck gate [report]`: only --help. */
const GATE_COMMAND_FLAGS = { help: { type: 'boolean', short: 'h' } } as const;

/** parseArgs' own errors carry Node's wording and code; keep the part naming the option. */
function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const error = e as Error & { code?: string };
    if (error.code?.startsWith('ERR_PARSE_ARGS')) {
      // Node's message quotes the argument: a key pasted as one (a PEM starts with dashes) is not repeated.
      const pasted = (config.args ?? []).find(
        (arg) => looksLikeKeyMaterial(arg) && error.message.includes(arg.slice(0, 12)),
      );
      if (pasted !== undefined)
        throw new UsageError(
          `an argument of ${pasted.length} characters looks like key material, not an option or a file name (not repeated here); a key goes in a file or an environment variable (see --help)`,
        );
      const line = error.message
        .replace(/\. To specify a positional argument.*$/s, '')
        .replace(/\s*\n\s*/g, ' ');
      const option = /^Unknown option '([^']+)'/.exec(error.message)?.[1]?.split('=')[0];
      if (option && PLAYWRIGHT_OPTIONS.has(option))
        throw new UsageError(`${line}: it is Playwright's; pass it after "--" (gatecheck … -- ${option} …)`);
      throw new UsageError(`${line} (see --help)`);
    }
    throw e;
  }
}

function integer(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got ${shownValue(raw)}`);
  }
  return n;
}

/**
 * A URL as a message shows it: RFC 3986 §3.2.1 user information ("user:password@") and the query and fragment
 * (an API key often rides there) replaced by "[redacted]" — a base URL can carry a secret.
 */
function shownUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.username) copy.username = '[redacted]';
  if (copy.password) copy.password = '[redacted]';
  if (copy.search) copy.search = '?[redacted]';
  if (copy.hash) copy.hash = '#[redacted]';
  return shownValue(copy.href);
}

/** RFC 9110 §4.2: the target is an http or https URI; a path prefix is allowed, query and fragment are not. */
export function baseUrlOf(raw: string | undefined, flag = '--base-url'): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL: no user information to take out, but it may be a key pasted in the wrong place.
    throw new UsageError(`${flag} must be an http:// or https:// URL, got ${shownValue(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http:// or https:// URL, got ${shownUrl(url)}`);
  }
  if (url.search || url.hash)
    throw new UsageError(`${flag} must not carry a query or fragment, got ${shownUrl(url)}`);
  return raw.replace(/\/+$/, '');
}

function shardOf(raw: string | undefined): RunOptions['shard'] {
  if (raw === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(raw.trim());
  const current = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || current < 1 || current > total) {
    throw new UsageError(
      `--shard must be <current>/<total> with 1 ≤ current ≤ total, e.g. 1/4; got ${shownValue(raw)}`,
    );
  }
  return { current, total };
}

/** `--sign-key` / `--key`: a file (resolved against `cwd`) or env:NAME; nothing is read here. */
function keySourceOf(flag: string, raw: string | undefined, cwd: string): KeySource | undefined {
  if (raw === undefined) return undefined;
  const source = parseKeySource(raw);
  if (typeof source === 'string') throw new UsageError(`${flag} ${source}`);
  return 'file' in source ? { ...source, file: path.resolve(cwd, source.file) } : source;
}

/**
 * A file or directory named on the command line, resolved against `cwd`; key material given there is refused
 * without being repeated (messages name the path later: a pasted key would reach the log).
 */
function pathOf(flag: string, raw: string, cwd: string): string {
  if (looksLikeKeyMaterial(raw))
    throw new UsageError(
      `${flag} got key material (${raw.length} characters, not repeated here), not a file name`,
    );
  return path.resolve(cwd, raw);
}

/** `--only a,b --only c` → ['a', 'b', 'c']. */
function list(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

function runOptions(
  values: Record<string, unknown>,
  passthrough: readonly string[],
  cwd: string,
): RunOptions {
  const v = values as {
    'base-url'?: string;
    profile?: string;
    'ca-cert'?: string;
    strict?: boolean;
    'max-skipped-must'?: string;
    only?: string[];
    skip?: string[];
    seed?: string;
    budget?: string;
    'max-duration'?: string;
    'report-dir'?: string;
    shard?: string;
    'sign-key'?: string;
  };
  const baseUrl = baseUrlOf(v['base-url']);
  const signKey = keySourceOf('--sign-key', v['sign-key'], cwd);
  // fast-check seeds are 32-bit integers.
  const seed = integer('seed', v.seed, -(2 ** 31), 2 ** 31 - 1);
  const budget = integer('budget', v.budget, 0, 10_000_000);
  const maxDuration = durationOf(v['max-duration']);
  const shard = shardOf(v.shard);
  const maxSkippedMust = integer('max-skipped-must', v['max-skipped-must'], 0, 100_000);
  // A shard leaves the other shards' rules not run: the coverage gate belongs to the merged verdict.
  if (shard && maxSkippedMust !== undefined)
    throw new UsageError('--max-skipped-must belongs to merge-reports, not to a --shard run');
  // A shard's report is part of a verdict: the statement is signed over the merged report.
  if (shard && signKey) throw new UsageError('--sign-key belongs to merge-reports, not to a --shard run');
  const gate = gateFlagsOf(values, cwd);
  if (shard) refuseGateOnShard(gate);
  if (v.profile !== undefined && v.profile.trim() === '')
    throw new UsageError('--profile must name a JSON file');
  if (v['ca-cert'] !== undefined && v['ca-cert'].trim() === '')
    throw new UsageError('--ca-cert must name a PEM file of the CA that signed the target certificate');
  return {
    ...(v['ca-cert'] ? { caCert: pathOf('--ca-cert', v['ca-cert'], cwd) } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(v.profile ? { profile: pathOf('--profile', v.profile, cwd) } : {}),
    strict: v.strict ?? false,
    ...(maxSkippedMust !== undefined ? { maxSkippedMust } : {}),
    only: list(v.only),
    skip: list(v.skip),
    ...(seed !== undefined ? { seed } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(maxDuration !== undefined ? { maxDuration } : {}),
    reportDir: pathOf('--report-dir', v['report-dir'] ?? 'reports', cwd),
    ...(shard ? { shard } : {}),
    passthrough,
    ...(signKey ? { signKey } : {}),
    ...(gate ? { gate } : {}),
  };
}

export function parseCommand(argv: readonly string[], cwd: string = process.cwd()): Command {
  const dashes = argv.indexOf('--');
  const own = dashes === -1 ? [...argv] : argv.slice(0, dashes);
  const passthrough = dashes === -1 ? [] : argv.slice(dashes + 1);

  if (own[0] === 'rules') {
    const { values, positionals } = parse({
      args: own.slice(1),
      options: RULES_FLAGS,
      allowPositionals: true,
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length)
      throw new UsageError(`rules: unexpected argument ${shownValue(positionals[0] ?? '')} (see --help)`);
    if (values.markdown && values.json) throw new UsageError('rules: choose one of --markdown and --json');
    return { kind: 'rules', format: values.markdown ? 'markdown' : values.json ? 'json' : 'text' };
  }

  if (own[0] === 'gate') {
    const { values, positionals } = parse({
      args: own.slice(1),
      options: GATE_COMMAND_FLAGS,
      allowPositionals: true,
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length > 1)
      throw new UsageError(`gate: one report at most, got ${positionals.length} (see --help)`);
    return { kind: 'gate', report: path.resolve(cwd, positionals[0] ?? 'reports') };
  }

  if (own[0] === 'check') {
    const { values, positionals } = parse({
      args: own.slice(1),
      options: CHECK_FLAGS,
      allowPositionals: true,
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length)
      throw new UsageError(`check: unexpected argument "${positionals[0]}" (see --help)`);
    if (!values.profile?.trim())
      throw new UsageError('check: --profile is required: the profile (JSON) to check');
    const baseUrl = baseUrlOf(values['base-url']);
    return {
      kind: 'check',
      options: {
        profile: path.resolve(cwd, values.profile),
        ...(baseUrl ? { baseUrl } : {}),
        probe: values.probe === true,
      },
    };
  }

  if (own[0] === 'init') {
    const { values, positionals } = parse({
      args: own.slice(1),
      options: INIT_FLAGS,
      allowPositionals: true,
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length !== 1)
      throw new UsageError(
        'init needs one argument: the OpenAPI document (a JSON or YAML file, or an http(s) URL)',
      );
    const source = positionals[0] as string;
    return {
      kind: 'init',
      options: {
        source: /^https?:\/\//.test(source) ? source : pathOf('init', source, cwd),
        out: pathOf('--out', values.out ?? 'gatecheck.profile.json', cwd),
        force: values.force === true,
        probe: baseUrlOf(values.probe, '--probe'),
        writes: values.writes === true,
        ...(values.server === undefined ? {} : { server: values.server }),
      },
    };
  }

  if (own[0] === 'verify') {
    const { values, positionals } = parse({
      args: own.slice(1),
      options: VERIFY_FLAGS,
      allowPositionals: true,
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length !== 1)
      throw new UsageError('verify needs one argument: the statement (reports/conformance.intoto.jsonl)');
    const key = keySourceOf('--key', values.key, cwd);
    if (!key)
      throw new UsageError(
        "verify: --key is required: the signer's public key (PEM or JWK file, or env:NAME)",
      );
    if (values.report !== undefined && values.report.trim() === '')
      throw new UsageError('--report must name the conformance.json the statement attests');
    return {
      kind: 'verify',
      options: {
        statement: pathOf('verify', positionals[0] ?? '', cwd),
        key,
        ...(values.report ? { report: pathOf('--report', values.report, cwd) } : {}),
        ...(values['allow-other-catalogue'] ? { allowOtherCatalogue: true } : {}),
      },
    };
  }

  if (own[0] === 'keygen') {
    const { values, positionals } = parse({
      args: own.slice(1),
      options: KEYGEN_FLAGS,
      allowPositionals: true,
    });
    if (values.help) return { kind: 'help' };
    if (positionals.length)
      throw new UsageError(`keygen: unexpected argument ${shownValue(positionals[0] ?? '')} (see --help)`);
    const type = values.type ?? 'ed25519';
    if (type !== 'ed25519' && type !== 'p256')
      throw new UsageError(`--type must be ed25519 or p256, got ${shownValue(type)}`);
    const format = values.format ?? 'pem';
    if (format !== 'pem' && format !== 'jwk')
      throw new UsageError(`--format must be pem or jwk, got ${shownValue(format)}`);
    if (values.out !== undefined && values.out.trim() === '')
      throw new UsageError('--out must be a path prefix: <prefix>.key and <prefix>.pub are written');
    return {
      kind: 'keygen',
      options: {
        out: pathOf('--out', values.out ?? 'gatecheck-signing', cwd),
        algorithm: type === 'ed25519' ? 'Ed25519' : 'ECDSA P-256',
        format,
        force: values.force === true,
      },
    };
  }

  if (own[0] === 'merge-reports') {
    const { values, positionals } = parse({ args: own.slice(1), options: RUN_FLAGS, allowPositionals: true });
    if (values.help) return { kind: 'help' };
    if (positionals.length !== 1) {
      throw new UsageError(
        "merge-reports needs one argument: the directory holding the shards' blob reports",
      );
    }
    for (const flag of ['only', 'skip', 'shard', 'seed', 'budget', 'max-duration'] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`merge-reports: --${flag} belongs to the shard runs, not the merge`);
    }
    return {
      kind: 'merge',
      blobDir: pathOf('merge-reports', positionals[0] ?? '', cwd),
      options: runOptions(values, passthrough, cwd),
    };
  }

  const { values, positionals } = parse({ args: own, options: RUN_FLAGS, allowPositionals: true });
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (values['list-rules'])
    return { kind: 'list-rules', ...(values.profile ? { profile: path.resolve(cwd, values.profile) } : {}) };
  if (positionals.length) {
    throw new UsageError(
      `unexpected argument ${shownValue(positionals[0] ?? '')}: commands are "init", "check", "rules", "merge-reports", "verify" and "keygen"; Playwright options go after "--"`,
    );
  }
  return { kind: 'run', options: runOptions(values, passthrough, cwd) };
}

/** `--max-duration`: seconds (`300`), or with a unit (`90s`, `5m`, `1h`). */
function durationOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h)?\s*$/.exec(text);
  const seconds =
    m === null ? Number.NaN : Number(m[1]) * ({ s: 1, m: 60, min: 60, h: 3600 }[m[2] ?? 's'] ?? 1);
  if (!(seconds >= 1) || seconds > 7 * 86_400)
    throw new UsageError(
      `--max-duration must be a wall time of at least 1 s (300, 90s, 5m, 1h), got ${JSON.stringify(text)}`,
    );
  return seconds;
}
