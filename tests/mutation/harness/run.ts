/**
 * One mutation run: a mock per target (each defect, and the conformant mock) started in this process on a
 * free port, then the conformance suite run once as a child `playwright test` over all of them
 * (tests/mutation/mutation.config.ts: one project per target, pointed at its mock through the suite's
 * `runTarget` option), strict (GATECHECK_STRICT=1: SHOULD rules
 * fail instead of warning), with Playwright's JSON reporter. Returns, per target, the rules whose tests
 * failed, passed or were skipped, read from the tests' `@rule:<id>` tags.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { DefectName } from '../../../mock/defects/registry.ts';
import type { RunningMock } from '../../../mock/server.ts';
import { writeCarriers } from '../../../scripts/carriers/write.ts';
import { ENV } from '../../../shared/env.ts';
import type { CodeUnder } from '../../../shared/paths.ts';
import { PROFILE_CHECKED_ENV, readProfile } from '../../../specs/profile/load.ts';
import { OBSERVATIONS_ENV } from '../../../specs/run/observation-store.ts';
import { CONFORMANT, MANIFEST_ENV, type Manifest, targetOfProject } from './manifest.ts';
import { mutationConfig, PLAYWRIGHT_CLI, ROOT } from './paths.ts';
import { startTarget, writeTargetFiles } from './targets.ts';

export interface RunOptions {
  readonly defects: readonly DefectName[];
  /** GATECHECK_BUDGET for one target. */
  readonly budget: (target: DefectName | typeof CONFORMANT) => number;
  /** Whether the target's run includes the fuzz specs. */
  readonly fuzz: (target: DefectName | typeof CONFORMANT) => boolean;
  /** The rules whose checks run against the target; undefined: every check of the suite. */
  readonly rules?: (target: DefectName | typeof CONFORMANT) => readonly string[] | undefined;
  /** Child `playwright test` workers. */
  readonly workers: number;
  readonly timeoutMs: number;
  /** Called with each progress line of the child (harness/progress-reporter.ts) as it comes. */
  readonly onProgress?: (line: string) => void;
  /**
   * The code the child run loads: the suite compiled for the self-tests (a dist/ folder,
   * tests/setup/compiled-suite.ts) with the environment it runs with, or the repository's sources.
   */
  readonly code: CodeUnder;
}

/** What the suite said about one target. */
export interface TargetVerdict {
  readonly name: string;
  /** Rule ids with at least one failed test. */
  readonly failing: readonly string[];
  /** Rule ids all of whose tests passed. */
  readonly passing: readonly string[];
  /** Rule ids all of whose tests were skipped, with the first reason. */
  readonly skipped: Readonly<Record<string, string>>;
  /** Tests that failed without a rule tag, or errors outside tests (they make the run unusable). */
  readonly errors: readonly string[];
  /** First failure message per failing rule, one line. */
  readonly reasons: Readonly<Record<string, string>>;
}

export interface RunResult {
  readonly verdicts: ReadonlyMap<string, TargetVerdict>;
  readonly durationMs: number;
  readonly exitCode: number;
  /** Errors of the run as a whole (config, global), and the child's stderr when it had no report. */
  readonly errors: readonly string[];
  readonly command: string;
}

interface JsonResult {
  status: string;
  error?: { message?: string };
  errors?: { message?: string }[];
  annotations?: { type: string; description?: string }[];
}
interface JsonTest {
  projectName: string;
  status: 'expected' | 'unexpected' | 'skipped' | 'flaky';
  annotations: { type: string; description?: string }[];
  results: JsonResult[];
}
interface JsonSpec {
  title: string;
  tags: string[];
  tests: JsonTest[];
}
interface JsonSuite {
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites: JsonSuite[];
  errors: { message?: string }[];
}

export async function runMutation(options: RunOptions): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-mutation-'));
  const mocks: RunningMock[] = [];
  const started = performance.now();
  try {
    const files = await writeTargetFiles(join(dir, 'target'));
    // Every target's profile is this one file: validated here once, as the CLI and global setup do for the
    // workers they start (specs/profile/load.ts PROFILE_CHECKED_ENV), not again by each of the ≈ 130 workers.
    const { digest: profileChecked } = readProfile(files.profilePath);
    const names: (DefectName | typeof CONFORMANT)[] = [CONFORMANT, ...options.defects];
    const targets = [];
    for (const name of names) {
      const mock = await startTarget(files, name === CONFORMANT ? [] : [name]);
      mocks.push(mock);
      const rules = options.rules?.(name);
      targets.push({
        name,
        url: mock.url,
        profile: files.profilePath,
        budget: options.budget(name),
        ...(rules === undefined ? {} : { rules }),
      });
    }
    const manifest: Manifest = {
      targets,
      suiteDir: await writeCarriers(join(dir, 'suite'), options.code.root),
      skipFuzz: names.filter((name) => !options.fuzz(name)),
    };
    const manifestPath = join(dir, 'manifest.json');
    await writeFile(manifestPath, JSON.stringify(manifest, null, 2));

    const reportPath = join(dir, 'report.json');
    const args = [
      PLAYWRIGHT_CLI,
      'test',
      '--config',
      mutationConfig(options.code.root),
      `--workers=${options.workers}`,
      '--output',
      join(dir, 'out'),
    ];
    const env: NodeJS.ProcessEnv = { ...process.env };
    // The outer run's settings must not leak into the child; each project's `runTarget` names its target.
    for (const name of [
      ENV.baseUrl,
      ENV.profile,
      ENV.budget,
      ENV.seed,
      ENV.cli,
      'GATECHECK_EMBEDDED',
      'TEST_WORKER_INDEX',
      'TEST_PARALLEL_INDEX',
    ]) {
      delete env[name];
    }
    Object.assign(env, options.code.env, {
      [MANIFEST_ENV]: manifestPath,
      [OBSERVATIONS_ENV]: join(dir, 'observations'),
      [ENV.strict]: '1',
      [ENV.reportDir]: join(dir, 'reports'),
      [PROFILE_CHECKED_ENV]: profileChecked,
      PLAYWRIGHT_JSON_OUTPUT_FILE: reportPath,
      FORCE_COLOR: '0',
    });
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('mutation: ')) options.onProgress?.(line);
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-4000);
      });
      child.on('close', (exit) => {
        clearTimeout(timer);
        resolve({ code: exit ?? 1, stderr });
      });
    });
    let report: JsonReport | undefined;
    try {
      const text = await readFile(reportPath, 'utf8');
      // For a closer look at a run: GATECHECK_MUTATION_KEEP=<file> keeps the child's JSON report.
      const keep = process.env.GATECHECK_MUTATION_KEEP;
      if (keep) await writeFile(keep, text);
      report = JSON.parse(text) as JsonReport;
    } catch {
      report = undefined;
    }
    const errors = report
      ? report.errors.map((e) => firstLine(e.message))
      : [`no JSON report (exit ${code}): ${stderr.slice(-2000)}`];
    return {
      verdicts: verdictsOf(report, names),
      durationMs: performance.now() - started,
      exitCode: code,
      errors,
      command: `node ${args.join(' ')}`
        .replaceAll(options.code.root, '<code>')
        .replaceAll(ROOT, '')
        .replaceAll(dir, '<tmp>'),
    };
  } finally {
    await Promise.allSettled(mocks.map((m) => m.close()));
    await rm(dir, { recursive: true, force: true });
  }
}

function verdictsOf(report: JsonReport | undefined, names: readonly string[]): Map<string, TargetVerdict> {
  const specs: JsonSpec[] = [];
  const walk = (suite: JsonSuite): void => {
    specs.push(...(suite.specs ?? []));
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report?.suites ?? []) walk(suite);

  const out = new Map<string, TargetVerdict>();
  for (const name of names) {
    const states = new Map<string, { failed: boolean; passed: boolean; skip?: string; reason?: string }>();
    const errors: string[] = [];
    for (const spec of specs) {
      const rule = ruleOf(spec);
      for (const t of spec.tests) {
        if (targetOfProject(t.projectName) !== name) continue;
        // scripts/carriers/load.ts marks a failed check expected-to-fail (to keep its worker): the result says what happened.
        const outcome = t.results[t.results.length - 1]?.status ?? 'skipped';
        const failed = t.status === 'unexpected' || (outcome !== 'passed' && outcome !== 'skipped');
        if (rule === undefined) {
          if (failed) errors.push(`${spec.title}: ${messageOf(t)}`);
          continue;
        }
        const state = states.get(rule) ?? { failed: false, passed: false };
        if (failed) {
          state.failed = true;
          state.reason ??= `${spec.title}: ${messageOf(t)}`;
        } else if (outcome === 'passed') {
          state.passed = true;
        } else {
          state.skip ??= t.annotations.find((a) => a.type === 'skip')?.description ?? 'skipped';
        }
        states.set(rule, state);
      }
    }
    const failing = [...states]
      .filter(([, s]) => s.failed)
      .map(([id]) => id)
      .sort();
    const passing = [...states]
      .filter(([, s]) => !s.failed && s.passed)
      .map(([id]) => id)
      .sort();
    const skipped = Object.fromEntries(
      [...states].filter(([, s]) => !s.failed && !s.passed).map(([id, s]) => [id, s.skip ?? 'skipped']),
    );
    const reasons = Object.fromEntries(
      [...states].filter(([, s]) => s.failed).map(([id, s]) => [id, s.reason ?? '']),
    );
    out.set(name, { name, failing, passing, skipped, errors, reasons });
  }
  return out;
}

function ruleOf(spec: JsonSpec): string | undefined {
  for (const tag of spec.tags) {
    const m = /^@?rule:(.+)$/.exec(tag);
    if (m) return m[1];
  }
  return undefined;
}

function messageOf(t: JsonTest): string {
  const result = t.results[t.results.length - 1];
  const message = result?.error?.message ?? result?.errors?.[0]?.message ?? t.status;
  return firstLine(message);
}

function firstLine(text: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in Playwright messages.
  const plain = (text ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  );
}
