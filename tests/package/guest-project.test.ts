/**
 * The suite as a guest in a user's Playwright project (issue #40): nothing of it runs, resolves or writes
 * unless one of its checks is selected. The user's config (guest-project/playwright.config.ts) has its own
 * project `e2e` beside `...gatecheckProjects()`; it is run four ways from a fresh working directory:
 * everything, the user's project alone (with a profile whose variable is not set and whose target is down),
 * the suite alone, and the suite alone with that variable missing. Each prints its transcript when
 * GUEST_TRANSCRIPT=1.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, ROOT, type RunResult } from '../report/synthetic.ts';
import { run } from './consumer.ts';

const CONFIG = path.join(import.meta.dirname, 'guest-project/playwright.config.ts');
/** The same with the user's project `after`, which depends on the suite's checks. */
const AFTER_CONFIG = path.join(import.meta.dirname, 'guest-project/after.config.ts');
const CLI = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
/** A slice of the catalogue for the runs that reach the suite, and the user's own test. */
const SLICE = ['--grep', "@rule:auth\\.401\\.missing|user's own test"];
const MISSING_VARIABLE = 'GUEST_ADMIN_PASSWORD';

test.describe.configure({ timeout: 180_000 });

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The bundled mock's profile, with one password read from a variable and a target that is down. */
async function profileNeedingVariable(dir: string): Promise<string> {
  const profile = JSON.parse(await readFile(path.join(ROOT, 'fixtures/mock.profile.json'), 'utf8'));
  profile.baseUrl = `http://127.0.0.1:${await closedPort()}`;
  profile.identities.admin.basic.password = { env: MISSING_VARIABLE };
  const file = path.join(dir, 'guest.profile.json');
  await writeFile(file, JSON.stringify(profile));
  return file;
}

async function playwright(
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
  config = CONFIG,
) {
  const result = await run(
    process.execPath,
    [CLI, 'test', '-c', config, ...args],
    dir,
    170_000,
    cleanEnv(env),
  );
  if (process.env.GUEST_TRANSCRIPT === '1')
    process.stdout.write(
      `\n$ npx playwright test ${args.join(' ')}${Object.keys(env).length ? `   (${Object.keys(env).join(', ')} set)` : ''}\n${result.stdout}${result.stderr}exit ${result.code}\n`,
    );
  return result;
}

const shown = (r: RunResult) => `${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`;

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-guest-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("--project <theirs>: their test runs, and nothing of the suite's is resolved, started or written", async () => {
  const profile = await profileNeedingVariable(dir);
  const result = await playwright(dir, ['--project', 'e2e'], { GUEST_PROFILE: profile });
  expect(result.code, shown(result)).toBe(0);
  expect(result.stdout).toMatch(/\[e2e\] › .*own\.spec\.ts/);
  expect(result.stdout).toContain('1 passed');
  const all = result.stdout + result.stderr;
  expect(all).not.toContain(MISSING_VARIABLE);
  expect(all).not.toMatch(/gatecheck|conformant|seed \d+/i);
  expect(existsSync(path.join(dir, 'reports')), 'no reports/ written').toBe(false);
});

test("all projects: their test and the suite's selected checks run; the report speaks for the checks only", async () => {
  const result = await playwright(dir, SLICE);
  expect(result.code, shown(result)).toBe(0);
  expect(result.stdout).toMatch(/\[e2e\] › .*own\.spec\.ts/);
  expect(result.stdout).toContain('[gatecheck-setup]');
  expect(result.stdout).toContain('[gatecheck] ›');
  // The run's --grep selects no observer rule: their teardown project has nothing to run (docs/observers.md).
  expect(result.stdout).not.toContain('[gatecheck-observers]');
  const report = JSON.parse(await readFile(path.join(dir, 'reports/conformance.json'), 'utf8')) as {
    rules: { id: string; verdict: string; reason?: string }[];
    unattributed: unknown[];
  };
  expect(report.rules.find((r) => r.id === 'auth.401.missing')?.verdict).toBe('pass');
  // Filtered out by the run's own --grep, said so: never "not checked by this suite version".
  const filtered = report.rules.find((r) => r.id === 'success.200.protected');
  expect(JSON.stringify(filtered)).toContain('not selected in this run (--grep');
  expect(JSON.stringify(report)).not.toContain('suite version checks');
  // The user's own test is theirs: not an unattributed test of the suite.
  expect(report.unattributed).toEqual([]);
});

test('--project gatecheck: the suite alone, their test not run', async () => {
  const result = await playwright(dir, ['--project', 'gatecheck', ...SLICE]);
  expect(result.code, shown(result)).toBe(0);
  expect(result.stdout).not.toContain('[e2e]');
  expect(result.stdout).toContain('[gatecheck] ›');
  expect(existsSync(path.join(dir, 'reports/conformance.json'))).toBe(true);
});

test('--project gatecheck with a variable missing: one line names it, and no check runs', async () => {
  const profile = await profileNeedingVariable(dir);
  // The observer rules selected too, to see that they judge nothing after a failed set-up.
  const withObservers = ['--grep', "@rule:(auth\\.401\\.missing|observed\\.)|user's own test"];
  const result = await playwright(dir, ['--project', 'gatecheck', ...withObservers], {
    GUEST_PROFILE: profile,
  });
  expect(result.code, shown(result)).toBe(1);
  expect(result.stdout).toContain(`needs environment variable ${MISSING_VARIABLE}, which is not set`);
  expect(result.stdout).not.toContain('[e2e]');
  // The checks depend on the set-up: Playwright ran none of them.
  expect(result.stdout).not.toMatch(/✓ .*\[gatecheck\] ›/);
  const report = JSON.parse(await readFile(path.join(dir, 'reports/conformance.json'), 'utf8')) as {
    run: { errors: string[] };
    target: { baseUrl: string };
    rules: { id: string; verdict: string; reason?: string }[];
  };
  expect(report.run.errors[0]).toContain(MISSING_VARIABLE);
  // The target the run meant, the profile's, not "bundled mock".
  expect(report.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(report.rules.every((r) => r.verdict === 'not-run')).toBe(true);
  expect(JSON.stringify(report.rules.find((r) => r.id === 'auth.401.missing'))).toContain(
    `not run: the run stopped before any test (the run's set-up failed: profile: /identities/admin/basic/password needs environment variable ${MISSING_VARIABLE}`,
  );
  // Nor did the observer verdicts judge anything: they skip themselves after a failed set-up.
  expect(result.stdout).not.toMatch(/[✓✘] .*\[gatecheck-observers\]/);
  expect(result.stdout).toContain('9 skipped');
});

test("their project run after the suite's, in the same run: its workers see no BASE_URL and no GATECHECK_* of the suite's run", async () => {
  const result = await playwright(
    dir,
    ['--grep', "@rule:auth\\.401\\.missing|nothing of gatecheck's run"],
    {},
    AFTER_CONFIG,
  );
  expect(result.stdout).toContain('[gatecheck] ›');
  expect(result.stdout).toMatch(/\[after\] › .*environment\.spec\.ts/);
  expect(result.code, shown(result)).toBe(0);
});

/** Folders the suite makes in the system's temporary directory (the run host's, the observers' store). */
async function suiteFolders(tmp: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(tmp)).filter((name) => name.startsWith('gatecheck-'));
}

test('a syntax error in their own spec: Playwright reports it, and the suite says nothing, writes nothing, appends no step summary (issue #67)', async () => {
  const own = path.join(dir, 'broken-e2e');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(own);
  await writeFile(
    path.join(own, 'broken.spec.ts'),
    "import { test } from '@playwright/test';\ntest('x', () => {\n",
  );
  const summary = path.join(dir, 'step-summary.md');
  const result = await playwright(dir, ['--project', 'e2e'], {
    GUEST_E2E_DIR: own,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
  });
  expect(result.code, shown(result)).toBe(1);
  expect(result.stdout + result.stderr).toMatch(/SyntaxError|Unexpected|Expected/);
  expect(result.stdout + result.stderr).not.toMatch(
    /gatecheck:|gatecheck fuzz|conformant|Gate (passed|failed)|::error/i,
  );
  expect(existsSync(path.join(dir, 'reports')), 'no reports/ written').toBe(false);
  expect(existsSync(summary), 'no step summary appended').toBe(false);
});

test('`| head -1` in the config route: no EPIPE, and no folder of the suite left in the temporary directory (issue #67)', async () => {
  const tmp = path.join(dir, 'tmp');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(tmp);
  const script = `"${process.execPath}" "${CLI}" test -c "${CONFIG}" --project gatecheck --grep '@rule:auth\\.401\\.missing' | head -1; echo "exit \${PIPESTATUS[0]}"`;
  const result = await run('bash', ['-c', script], dir, 170_000, cleanEnv({ TMPDIR: tmp }));
  expect(result.stderr, result.stderr).not.toMatch(/EPIPE|Unhandled 'error' event/);
  expect(result.stdout).toMatch(/exit 0\n?$/);
  expect(await suiteFolders(tmp)).toEqual([]);
});
