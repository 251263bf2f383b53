/**
 * `gatecheck [options]` and `gatecheck merge-reports <dir>`: check the flags and the profile, ask the target
 * once, run Playwright with the settings in its environment, and turn conformance.json into the exit code.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ENV } from '../shared/env.ts';
import { installedPlaywrightLine } from '../shared/playwright-support.ts';
import { startPrimedBroker, type TokenBroker, tokenSources } from '../specs/credentials/broker.ts';
import { TokenError } from '../specs/credentials/token-error.ts';
import { type ReporterEntry, reportersNamed, stdoutDocumentReporter } from '../specs/lib/progress-stream.ts';
import { checkReachable, everyAnswerIs404 } from '../specs/lib/reachability.ts';
import { INSECURE_WARNING, nodeTlsOptions, runTls } from '../specs/lib/tls.ts';
import { PROFILE_CHECKED_ENV } from '../specs/profile/load.ts';
import type { Profile } from '../specs/profile/types.ts';
import { loadCatalogue } from '../specs/report/catalogue-source.ts';
import { displayPath } from '../specs/report/text.ts';
import {
  casesWithin,
  duration,
  estimateLine,
  estimateRun,
  plannedFuzzCases,
} from '../specs/setup/estimate.ts';
import type { RunOptions } from './args.ts';
import type { RunSigner } from './attest/sign-run.ts';
import { EXIT, type ExitCode, UsageError } from './exit-codes.ts';
import { selection } from './filter.ts';
import { gateEnv } from './gate-options.ts';
import { clearReports, finish, type Io } from './outcome.ts';
import { PACED_WORKERS, pacedWorkerArgs } from './paced-workers.ts';
import { REPORTER, runPlaywright, SUITE_CONFIG } from './playwright.ts';
import { declaredUrls, preflightUrl, resolveTarget, targetEnv } from './target.ts';

/** Everything the suite and the reporter read from the environment (shared/env.ts names them). */
function childEnv(
  options: RunOptions,
  runId: string,
  baseUrl: string | undefined,
  filter?: string,
): NodeJS.ProcessEnv {
  const env = targetEnv(options);
  // The resolved target, so the reporter names it even when it came from the profile's baseUrl.
  if (baseUrl) env[ENV.baseUrl] = baseUrl;
  if (options.strict) env[ENV.strict] = '1';
  if (options.maxSkippedMust !== undefined) env[ENV.maxSkippedMust] = String(options.maxSkippedMust);
  if (options.seed !== undefined) env[ENV.seed] = String(options.seed);
  if (options.budget !== undefined) env[ENV.budget] = String(options.budget);
  env[ENV.reportDir] = options.reportDir;
  env[ENV.runId] = runId;
  env[ENV.cli] = '1';
  if (filter) env[ENV.filter] = filter;
  else delete env[ENV.filter];
  // Playwright's own reporters follow the report dir unless the caller already chose a place for them.
  env.PLAYWRIGHT_JUNIT_OUTPUT_FILE ??= path.join(options.reportDir, 'junit.xml');
  env.PLAYWRIGHT_HTML_OUTPUT_DIR ??= path.join(options.reportDir, 'playwright-html');
  env.PLAYWRIGHT_HTML_OPEN ??= 'never';
  return env;
}

/**
 * --sign-key: the key is read and checked now, before any request (a bad key is exit 2); the report is signed
 * once the run has written it. Loaded only when asked for.
 */
async function signerFor(
  options: RunOptions,
  profilePath: string,
  shardsMerged: number | null,
): Promise<RunSigner | undefined> {
  if (!options.signKey) return undefined;
  const { prepareSigner } = await import('./attest/sign-run.ts');
  return prepareSigner({ source: options.signKey, profilePath, shardsMerged });
}

/** Signs the run's report if asked; the lines to print, or why signing failed (said on stderr). */
async function signReport(
  signer: RunSigner | undefined,
  reportDir: string,
  runId: string,
  io: Io,
): Promise<readonly string[] | { readonly failure: string }> {
  if (!signer) return [];
  const signed = await signer.sign(reportDir, runId);
  if (signed.ok === 'no-report') return [];
  if (signed.ok) return signed.lines;
  io.err(`${signed.line}\n`);
  return { failure: 'the signed statement asked for was not made: see the line above' };
}

/** finish(), after signing: a statement that was asked for and could not be made fails the run. */
async function finishSigned(
  io: Io,
  options: RunOptions,
  runId: string,
  code: number,
  junitFile: string | undefined,
  signer: RunSigner | undefined,
  /** Lines after the signed statement's, before the exit line. */
  notes: readonly string[] = [],
): Promise<ExitCode> {
  const signed = await signReport(signer, options.reportDir, runId, io);
  return finish(
    io,
    options.reportDir,
    runId,
    code,
    junitFile,
    ['failure' in signed ? [] : signed, notes].flat(),
    'failure' in signed ? signed.failure : undefined,
  );
}

/**
 * The passthrough with the conformance reporter added to a `--reporter` it names (`-- --reporter=json` →
 * `json,<conformance reporter>`): the CLI's verdict is read from conformance.json, which only that reporter
 * writes. Also the reporters the run will have, when the passthrough chose them.
 */
export function withConformanceReporter(
  passthrough: readonly string[],
  extra: readonly string[] = [],
): { args: string[]; reporters: ReporterEntry[] | undefined } {
  const args = [...passthrough];
  let reporters: ReporterEntry[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const inline = arg.startsWith('--reporter=');
    if (!inline && arg !== '--reporter') continue;
    const at = inline ? i : i + 1;
    const value = inline ? arg.slice('--reporter='.length) : (args[at] ?? '');
    const names = reportersNamed(value).map(([name]) => name);
    const all = [
      ...names,
      ...extra.filter((e) => !names.includes(e)),
      ...(names.includes(REPORTER) ? [] : [REPORTER]),
    ];
    args[at] = inline ? `--reporter=${all.join(',')}` : all.join(',');
    reporters = reportersNamed(all.join(','));
  }
  return { args, reporters };
}

/**
 * The CLI's own lines go where the suite's go (specs/lib/progress-stream.ts): to stderr when a reporter the
 * passthrough chose prints its document on stdout, which is then Playwright's alone.
 */
function linesTo(io: Io, options: RunOptions, env: NodeJS.ProcessEnv): Io {
  const { reporters } = withConformanceReporter(options.passthrough);
  if (reporters === undefined || stdoutDocumentReporter(reporters, env) === undefined) return io;
  return { out: io.err, err: io.err };
}

/**
 * With a declared rate limit: `--max-duration` sizes the fuzz cases to it (refused, exit 2, below what the checks
 * alone need), and the first line says what the plan holds and how long it should take (specs/setup/estimate.ts).
 */
function planRun(
  profile: Profile,
  options: RunOptions,
  io: Io,
): { options: RunOptions; workerArgs: string[] } | ExitCode {
  let sized = options;
  if (options.maxDuration !== undefined) {
    const fit = casesWithin(profile, options.maxDuration);
    if (fit !== undefined && 'tooShort' in fit) {
      io.err(
        `gatecheck: --max-duration ${options.maxDuration} s is less than the declared rate limit allows: the checks alone need ${duration(fit.tooShort)} (${fit.tooShort} s)\n`,
      );
      return EXIT.usage;
    }
    if (fit !== undefined)
      sized = { ...options, budget: Math.min(options.budget ?? Number.POSITIVE_INFINITY, fit.fuzzCases) };
  }
  const estimate = estimateRun(profile, plannedFuzzCases(profile, sized.budget));
  const workerArgs = pacedWorkerArgs(estimate, options.passthrough);
  if (estimate !== undefined)
    io.out(`${estimateLine(estimate, workerArgs.length > 0 ? PACED_WORKERS : undefined)}\n`);
  return { options: sized, workerArgs };
}

export async function runSuite(options: RunOptions, terminal: Io): Promise<ExitCode> {
  const io = linesTo(terminal, options, { ...process.env, ...targetEnv(options) });
  // Before any test runs (shared/playwright-support.ts): a Playwright outside the peer range, named.
  const unsupported = installedPlaywrightLine();
  if (unsupported !== undefined) throw new UsageError(unsupported);
  let filterArgs: string[] = [];
  let filter: string | undefined;
  if (options.only.length || options.skip.length) {
    const catalogue = await loadCatalogue();
    const chosen = selection(
      options.only,
      options.skip,
      catalogue.rules.map((r) => r.id),
    );
    filterArgs = [
      ...(chosen.grep ? ['--grep', chosen.grep] : []),
      ...(chosen.grepInvert ? ['--grep-invert', chosen.grepInvert] : []),
    ];
    filter = chosen.description;
  }

  const target = resolveTarget(options);
  const planned = planRun(target.profile, options, io);
  if (typeof planned === 'number') return planned;
  options = planned.options;
  const gate = await gateEnv(options.gate, { raw: target.profile, file: target.profilePath });
  const signer = await signerFor(options, target.profilePath, null);
  const tls = runTls(target.profile, targetEnv(options));
  const tlsOptions = nodeTlsOptions(tls);
  if (tls.insecure) io.err(`${INSECURE_WARNING}\n`);
  let broker: TokenBroker | undefined;
  if (target.baseUrl) {
    const addressed = { ...target, baseUrl: target.baseUrl };
    const url = preflightUrl(addressed);
    const timeoutMs = target.profile.budget?.timeoutMs ?? 5000;
    const answer = await checkReachable(url, timeoutMs, tlsOptions);
    if (!answer.reachable) {
      io.err(`gatecheck: target unreachable: GET ${url}: ${answer.reason}\n`);
      return EXIT.unreachable;
    }
    if (answer.status === 404) {
      const urls = declaredUrls(addressed);
      if (await everyAnswerIs404(urls, timeoutMs, tlsOptions)) {
        const paths = urls.map((u) => new URL(u).pathname).join(', ');
        io.err(
          `gatecheck: target not found: every endpoint of the profile answered 404 under ${target.baseUrl} ` +
            `(GET ${paths}); the base URL is probably wrong (a missing or extra path prefix?)\n`,
        );
        return EXIT.unreachable;
      }
    }
    io.out(`gatecheck: target ${target.baseUrl} answered the preflight with ${answer.status}\n`);
    // Tokens obtained at run time: this process hosts the run's broker, so a refused or unreachable token
    // endpoint is an exit code before any rule runs, and the workers reach it through the environment.
    if (tokenSources(target.profile).length > 0) {
      try {
        broker = await startPrimedBroker({
          profile: target.profile,
          baseUrl: target.baseUrl,
          tls: tlsOptions,
          timeoutMs,
        });
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        io.err(`gatecheck: ${error.message}\n`);
        return error.kind === 'refused' ? EXIT.usage : EXIT.unreachable;
      }
      io.out(
        `gatecheck: Bearer tokens obtained for ${tokenSources(target.profile)
          .map(([n]) => n)
          .join(', ')}\n`,
      );
    }
  } else {
    io.out('gatecheck: no base URL given; the suite starts the bundled mock\n');
  }
  try {
    // The profile validated above is not validated again by the run's processes (specs/profile/load.ts).
    const checked = { [PROFILE_CHECKED_ENV]: target.profileDigest };
    return await runWith(
      options,
      io,
      target.baseUrl,
      [...filterArgs, ...planned.workerArgs],
      filter,
      {
        ...(broker?.env ?? {}),
        ...checked,
        ...gate,
      },
      signer,
    );
  } finally {
    await broker?.close();
  }
}

async function runWith(
  options: RunOptions,
  io: Io,
  baseUrl: string | undefined,
  /** Playwright's arguments for the selection (`--grep`) and the workers of a paced run. */
  runArgs: readonly string[],
  filter: string | undefined,
  extraEnv: Readonly<Record<string, string>>,
  signer?: RunSigner,
): Promise<ExitCode> {
  const runId = randomUUID();
  const env = { ...childEnv(options, runId, baseUrl, filter), ...extraEnv };
  await clearReports(options.reportDir, env.PLAYWRIGHT_JUNIT_OUTPUT_FILE);
  const shardArgs = options.shard
    ? ['--shard', `${options.shard.current}/${options.shard.total}`, '--reporter', `list,blob,${REPORTER}`]
    : [];
  // A shard's blob report is kept when the passthrough names reporters of its own.
  const passthrough = withConformanceReporter(options.passthrough, options.shard ? ['blob'] : []).args;
  if (options.shard && !env.PLAYWRIGHT_BLOB_OUTPUT_DIR && !env.PLAYWRIGHT_BLOB_OUTPUT_FILE) {
    // A file name per shard (Playwright's own naming): with only a directory, each shard run would first
    // empty it, and shards run one after another on one machine would keep only the last blob.
    const { current, total } = options.shard;
    env.PLAYWRIGHT_BLOB_OUTPUT_FILE = path.resolve(
      'blob-report',
      `report-${String(current).padStart(String(total).length, '0')}.zip`,
    );
  }
  // Playwright empties its output directory when a run starts: one per report directory keeps two runs
  // at once (CI jobs on one runner, parallel tests) from deleting each other's files.
  const outputArgs = passthrough.some((a) => a === '--output' || a.startsWith('--output='))
    ? []
    : ['--output', path.join(options.reportDir, 'test-results')];
  const code = await runPlaywright(
    ['test', '--config', SUITE_CONFIG, ...runArgs, ...shardArgs, ...outputArgs, ...passthrough],
    env,
  );
  // Playwright's own hint is not printed (cli/playwright.ts): this one names the report's folder.
  const html = env.PLAYWRIGHT_HTML_OUTPUT_DIR;
  const hint =
    html && existsSync(path.join(html, 'index.html'))
      ? [`Playwright's HTML report: npx playwright show-report ${displayPath(html)}`]
      : [];
  const exit = await finishSigned(io, options, runId, code, env.PLAYWRIGHT_JUNIT_OUTPUT_FILE, signer, hint);
  if (options.shard && env.PLAYWRIGHT_BLOB_OUTPUT_FILE) {
    io.out(
      `gatecheck: shard blob report ${displayPath(env.PLAYWRIGHT_BLOB_OUTPUT_FILE)}; combine the shards with ` +
        `"gatecheck merge-reports ${displayPath(path.dirname(env.PLAYWRIGHT_BLOB_OUTPUT_FILE))}"\n`,
    );
  }
  return exit;
}

export async function mergeShards(blobDir: string, options: RunOptions, terminal: Io): Promise<ExitCode> {
  const io = linesTo(terminal, options, { ...process.env, ...targetEnv(options) });
  if (!existsSync(blobDir) || !statSync(blobDir).isDirectory()) {
    throw new UsageError(`merge-reports: ${blobDir} is not a directory`);
  }
  const blobs = readdirSync(blobDir).filter((f) => f.endsWith('.zip')).length;
  if (blobs === 0) {
    throw new UsageError(`merge-reports: ${blobDir} holds no blob report (.zip) from a --shard run`);
  }
  // The profile is read for its secrets (redaction) and summary; no request is sent.
  const target = resolveTarget(options);
  const gate = await gateEnv(options.gate, { raw: target.profile, file: target.profilePath });
  const signer = await signerFor(options, target.profilePath, blobs);
  if (!options.profile && !process.env[ENV.profile]) {
    io.out('gatecheck: no --profile given: the merged report describes the bundled mock and its profile\n');
  }
  const runId = randomUUID();
  const env = { ...childEnv(options, runId, target.baseUrl), ...gate };
  await clearReports(options.reportDir, env.PLAYWRIGHT_JUNIT_OUTPUT_FILE);
  const code = await runPlaywright(
    [
      'merge-reports',
      '--config',
      SUITE_CONFIG,
      blobDir,
      ...withConformanceReporter(options.passthrough).args,
    ],
    env,
  );
  return finishSigned(io, options, runId, code, env.PLAYWRIGHT_JUNIT_OUTPUT_FILE, signer);
}
