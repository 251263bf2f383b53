/**
 * The conformance reporter: `['./specs/report/reporter.ts']` in playwright.config.ts. At the end of a run
 * it writes conformance.json, conformance.html and summary.md into the report directory.
 *
 * It reads the run only through the Reporter API (suite, results, annotations, attachments), so it works
 * the same in a normal run, in one shard, and under `playwright merge-reports`, which replays the shards'
 * blob reports through the reporters of the merge config.
 */

import { readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';
import { DEFAULT_SEED, ENV, ENV_EMBEDDED, isStrict } from '../../shared/env.ts';
import { CODE_ROOT } from '../../shared/paths.ts';
import { profileSecrets } from '../../shared/secrets.ts';
import { issuedTokens } from '../credentials/client.ts';
import { progressStream } from '../lib/progress-stream.ts';
import { DEFAULT_PROFILE_PATH } from '../profile/load.ts';
import { storedPoliteness } from '../run/politeness-store.ts';
import { setUpEnv, setUpStateHere, tearDownRun } from '../setup/run-host.ts';
import { UNREACHABLE } from '../setup/target-answers.ts';
import { githubAnnotations } from './annotations.ts';
import { buildReport } from './build.ts';
import { DEFAULT_CATALOGUE_MODULE, type LoadedCatalogue, loadCatalogue } from './catalogue-source.ts';
import { collectTest, stripAnsi } from './collect.ts';
import { gateSourcesFromEnv, loadGate } from './gate/load.ts';
import { gateExitLine } from './gate-exit.ts';
import { renderMarkdown } from './markdown.ts';
import { gatePassed } from './outcome.ts';
import { runFilterFromArgv } from './run-filter.ts';
import { Scrubber } from './scrub.ts';
import { suiteVersion } from './suite-version.ts';
import { displayPath, renderText, useColor } from './text.ts';
import { writeReports } from './write.ts';

export interface ConformanceReporterOptions {
  /** Report directory; default $GATECHECK_REPORT_DIR, else `reports/`. */
  readonly outputDir?: string;
  /** Module exporting `catalogue` and `CATALOGUE_VERSION`; default specs/rules/catalogue.ts. */
  readonly catalogue?: string;
  /** Profile JSON; default $GATECHECK_PROFILE, else the bundled mock's profile. */
  readonly profile?: string;
  /** Print the end-of-run summary (default: yes, unless the gatecheck CLI prints it). */
  readonly summary?: boolean;
  /** Set by Playwright itself: 'list' under `playwright test --list`, the mode its own reporters read. */
  readonly _mode?: string;
}

/**
 * `playwright test --list` collects the tests without running them and still calls onEnd, with status
 * 'passed'. Playwright tells its reporters through the `_mode` option; a run in which no test got a result
 * and nothing went wrong is the same thing seen through the public API. Either way: nothing ran, so no
 * report is written (it would replace the last real run's report with an all-not-run one).
 */
export function isListing(mode: string | undefined, suite: Suite | undefined, result: FullResult): boolean {
  if (mode === 'list') return true;
  const tests = suite?.allTests() ?? [];
  return result.status === 'passed' && tests.length > 0 && tests.every((t) => t.results.length === 0);
}

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}

const SPECS_DIR = path.join(CODE_ROOT, 'specs');
const SETUP_FILE = /[\\/]setup[\\/]run\.setup\.[jt]s$/;

/** The suite's setup test (specs/setup/run.setup.ts): the run's set-up, not a check. */
function isSetup(test: TestCase): boolean {
  return SETUP_FILE.test(test.location.file);
}

/** Whether a test is one of the suite's own: its file is one of the suite's, or it names a rule. */
function isCheck(test: TestCase): boolean {
  const file = path.resolve(test.location.file);
  return file.startsWith(SPECS_DIR + path.sep) || (test.tags ?? []).some((t) => t.startsWith('@rule:'));
}

/**
 * A user's config hosting the suite: `gatecheckProjects()` beside projects of their own (issue #67). Such a
 * guest is invisible until one of its tests runs — even when the user's own run fails to load.
 */
function isGuest(config: FullConfig | undefined): boolean {
  const ours = (p: FullConfig['projects'][number]) => path.resolve(p.testDir) === SPECS_DIR;
  const projects = config?.projects ?? [];
  return projects.some(ours) && projects.some((p) => !ours(p));
}

/** Whether any of the suite's tests, its set-up included, started in this run. */
function suiteStarted(suite: Suite | undefined): boolean {
  return (suite?.allTests() ?? []).some((t) => (isCheck(t) || isSetup(t)) && t.results.length > 0);
}

/** Whether a test of the user's own projects failed: their failure is theirs, never overridden by the gate. */
function ownTestFailed(suite: Suite | undefined): boolean {
  return (suite?.allTests() ?? []).some((t) => !isCheck(t) && !isSetup(t) && t.outcome() === 'unexpected');
}

/**
 * The suite's tests in a run: those of every project holding one of its checks (an unattributed test there is
 * the suite's, reported as such), but its set-up — never the tests of the user's own projects beside it.
 */
function suiteTestsOf(suite: Suite | undefined): TestCase[] {
  const all = suite?.allTests() ?? [];
  const projectOf = (test: TestCase) => test.parent.project()?.name;
  const suiteProjects = new Set(all.filter(isCheck).map(projectOf));
  return all.filter((t) => !isSetup(t) && suiteProjects.has(projectOf(t)));
}

/**
 * Where Playwright's JUnit reporter writes, if the run has one: PLAYWRIGHT_JUNIT_OUTPUT_FILE first, else its
 * outputFile option against the config's folder (the order Playwright's reporter resolves them in).
 */
function junitFileOf(config: FullConfig | undefined): string | undefined {
  const entry = config?.reporter.find(([name]) => name === 'junit');
  if (!config || !entry) return undefined;
  const fromEnv = process.env.PLAYWRIGHT_JUNIT_OUTPUT_FILE;
  if (fromEnv) return path.resolve(fromEnv);
  const outputFile = (entry[1] as { outputFile?: string } | undefined)?.outputFile;
  const configDir = config.configFile ? path.dirname(config.configFile) : config.rootDir;
  return outputFile ? path.resolve(configDir, outputFile) : undefined;
}

/** The profile's own baseUrl: the target a run meant when its set-up failed before setting BASE_URL. */
function profiledBaseUrl(raw: unknown): string | undefined {
  const baseUrl = (raw as { baseUrl?: unknown } | undefined)?.baseUrl;
  return typeof baseUrl === 'string' ? baseUrl : undefined;
}

/** A published report names the profile file, not where it sat on the machine that ran it. */
function publicName(file: string): string {
  const shown = displayPath(file);
  return shown === file ? path.basename(file) : shown;
}

export default class ConformanceReporter implements Reporter {
  readonly #options: ConformanceReporterOptions;
  #config: FullConfig | undefined;
  #suite: Suite | undefined;
  readonly #errors: string[] = [];

  constructor(options: ConformanceReporterOptions = {}) {
    this.#options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#config = config;
    this.#suite = suite;
  }

  /** The suite's checks in this run: none when the run selected only the user's own tests. */
  #suiteTests(): TestCase[] {
    return suiteTestsOf(this.#suite);
  }

  onError(error: TestError): void {
    this.#errors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    // The run's services close first: the politeness figures are left by the scheduler's teardown.
    await tearDownRun();
    // The runner's environment with what the run's set-up made (kept by its host, never put in the environment).
    const env: NodeJS.ProcessEnv = { ...process.env, ...setUpEnv() };
    if (isListing(this.#options._mode, this.#suite, result)) return undefined;
    // A guest in the user's run (issues #40, #67): none of the suite's tests started — not selected, the user's
    // files failed to load, the run stopped first — so it prints nothing, writes nothing and leaves the exit
    // code to Playwright. (In the suite's own config a run with no test is reported: nothing was checked.)
    const suiteTests = this.#suiteTests();
    if (isGuest(this.#config) && !suiteStarted(this.#suite)) return undefined;
    if (suiteTests.length === 0 && (this.#suite?.allTests().length ?? 0) > 0) return undefined;
    const outputDir = path.resolve(this.#options.outputDir ?? process.env[ENV.reportDir] ?? 'reports');
    const errors: string[] = [];
    // A failed set-up (a bad profile, a variable not set, a token endpoint refusing) stopped every check.
    let setUpFailed = false;
    for (const setup of (this.#suite?.allTests() ?? []).filter(isSetup)) {
      const failure = setup.results.at(-1)?.errors[0];
      if (!failure) continue;
      setUpFailed = true;
      const message = stripAnsi(failure.message ?? failure.value ?? '').replace(/^Error: /, '');
      errors.push(`the run's set-up failed: ${message}`);
    }
    // Failed in gatecheck's own configuration's global setup (specs/setup/global-set-up.ts): the run stopped
    // before any test, and Playwright reported the set-up's one line as the run's error.
    const hostSetUp = setUpStateHere();
    if (!setUpFailed && hostSetUp.state === 'failed') {
      setUpFailed = true;
      errors.push(`the run's set-up failed: ${hostSetUp.error}`);
      errors.push(...this.#errors.filter((e) => !e.includes(hostSetUp.error)));
    } else errors.push(...this.#errors);

    const profilePath = this.#options.profile ?? env[ENV.profile];
    let profile: { raw: unknown; source: string } | null = null;
    const profileFile = path.resolve(profilePath ?? DEFAULT_PROFILE_PATH);
    try {
      const file = profileFile;
      profile = {
        raw: JSON.parse(readFileSync(file, 'utf8')),
        source: profilePath ? publicName(file) : 'bundled mock profile',
      };
    } catch (e) {
      // Without a named profile and without the bundled one (a bare project), there is nothing to summarise.
      if (profilePath) errors.push(`profile ${profilePath} could not be read: ${(e as Error).message}`);
    }
    // Tokens obtained at run time (specs/credentials) are secrets too: the run's broker lists them.
    const scrub = new Scrubber([
      ...(profile ? profileSecrets(profile.raw) : []),
      ...(await issuedTokens(env)),
    ]);

    let catalogue: LoadedCatalogue = { rules: [], version: 'unavailable' };
    try {
      catalogue = await loadCatalogue(this.#options.catalogue ?? DEFAULT_CATALOGUE_MODULE);
    } catch (e) {
      errors.push(`rule catalogue could not be loaded: ${(e as Error).message}`);
    }

    // Waivers and a baseline (the CLI checked them before the run): a file that cannot be used now is a run error.
    let gate: ReturnType<typeof loadGate>;
    try {
      gate = loadGate(
        gateSourcesFromEnv(env, profile?.raw, profileFile),
        { ids: catalogue.rules.map((r) => r.id), version: catalogue.version },
        { env, baseUrl: env[ENV.baseUrl], shown: publicName },
      );
    } catch (e) {
      errors.push((e as Error).message);
    }

    const rootDir = this.#config?.rootDir ?? process.cwd();
    // After a failed set-up no check ran (the observers skipped themselves): every rule is "not run", for that.
    const tests = setUpFailed ? [] : suiteTests.map((t) => collectTest(t, rootDir));
    const shard = this.#config?.shard;
    const merged = process.argv.includes('merge-reports');
    const budget = intFromEnv(ENV.budget);
    const maxSkippedMust = intFromEnv(ENV.maxSkippedMust);
    const maxText = process.env[ENV.maxSkippedMust]?.trim();
    // A coverage gate that cannot be read must not pass silently: the run then proves nothing.
    if (maxText && (maxSkippedMust === undefined || maxSkippedMust < 0)) {
      errors.push(`${ENV.maxSkippedMust} must be an integer ≥ 0, got "${maxText}"`);
    }
    const filter = process.env[ENV.filter] || runFilterFromArgv(process.argv);
    const runId = process.env[ENV.runId];
    // Left by the run's teardown (tearDownRun above, specs/setup/set-up.ts).
    const politeness = storedPoliteness();

    const report = buildReport({
      catalogue,
      tests,
      suiteVersion: suiteVersion(),
      playwrightVersion: this.#config?.version ?? 'unknown',
      baseUrl: env[ENV.baseUrl] ?? (setUpFailed ? profiledBaseUrl(profile?.raw) : undefined),
      // Global setup marks a run on the mock it started; under merge-reports no BASE_URL means the same.
      bundledMock:
        env[ENV_EMBEDDED] === '1' || (!env[ENV.baseUrl] && !(setUpFailed && profiledBaseUrl(profile?.raw))),
      profile,
      run: {
        ...(runId ? { id: runId } : {}),
        startedAt: result.startTime,
        durationMs: result.duration,
        seed: intFromEnv(ENV.seed) ?? DEFAULT_SEED,
        ...(budget !== undefined ? { budget } : {}),
        strict: isStrict(),
        shard: shard && !merged ? `${shard.current}/${shard.total}` : null,
        merged,
        ...(filter ? { filter } : {}),
        ...(maxSkippedMust !== undefined && maxSkippedMust >= 0 ? { maxSkippedMust } : {}),
        status: result.status,
        errors,
        ...(errors.some((e) => e.startsWith(`the run's set-up failed: ${UNREACHABLE}`))
          ? { unreachable: true }
          : {}),
        ...(politeness ? { politeness } : {}),
      },
      scrub,
      ...(gate ? { gate } : {}),
      setUpFailed,
    });

    await writeReports(outputDir, report);
    const summaryFile = process.env.GITHUB_STEP_SUMMARY;
    // GitHub Actions' job summary; the CLI does this itself when it started the run.
    if (summaryFile && process.env[ENV.cli] !== '1') {
      await appendFile(summaryFile, renderMarkdown(report));
    }
    const byCli = process.env[ENV.cli] === '1';
    if (this.#options.summary ?? !byCli) {
      const junitFile = junitFileOf(this.#config);
      // On stderr when another reporter's document is on stdout (`--reporter=json,<this> > out.json`).
      const out = progressStream(this.#config?.reporter ?? []);
      const text = renderText(report, displayPath(outputDir), {
        ...(junitFile ? { junitFile } : {}),
        color: useColor(out),
      });
      out.write(`\n${text}`);
      // The annotations and the exit line say what the gate says, as the CLI's do (issue #67).
      if (!byCli && process.env.GITHUB_ACTIONS === 'true')
        for (const line of githubAnnotations(report)) process.stdout.write(`${line}\n`);
      if (!byCli) out.write(`${gateExitLine(report)}\n`);
    }
    // One gate in every route (issue #67): Playwright's exit code follows the gate, as the CLI's does — unless
    // the run was cut short or the user's own tests failed, which stay Playwright's to report.
    if (result.status !== 'passed' && result.status !== 'failed') return undefined;
    if (ownTestFailed(this.#suite)) return undefined;
    return { status: gatePassed(report) ? 'passed' : 'failed' };
  }
}
