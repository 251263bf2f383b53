/**
 * One gate in every route (issue #67): a user's own playwright.config with `gatecheckProjects()` ends as the CLI
 * does — Playwright's exit code follows the gate (waived and known failures do not fail the job), the same closing
 * line and GitHub annotations are printed, and `gatecheck gate` reads the same decision back from the report,
 * exit 3 included for a target that does not answer (where the CLI gives 3 and Playwright can only give 1, the
 * run's set-up stops on it with one line and no check runs).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningMock } from '../../mock/server.ts';
import { gatecheckBin } from '../cli/cli.ts';
import { startDefectiveMock } from '../helpers/defect-mock.ts';
import { cleanEnv, ROOT, runNode } from '../report/synthetic.ts';
import { run } from './consumer.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

const CONFIG = path.join(import.meta.dirname, 'guest-project/playwright.config.ts');
const PLAYWRIGHT = path.join(ROOT, 'node_modules/@playwright/test/cli.js');
const SLICE = '@rule:(auth\\.401\\.missing|auth\\.401\\.then-valid|method\\.405\\.allow)$';
const ONLY = 'auth.401.missing,auth.401.then-valid,method.405.allow';

let dir: string;
let mock: RunningMock | undefined;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-config-gate-'));
});
test.afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

async function profileFor(baseUrl: string, name: string): Promise<string> {
  const profile = JSON.parse(await readFile(path.join(ROOT, 'fixtures/mock.profile.json'), 'utf8'));
  profile.baseUrl = baseUrl;
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(profile));
  return file;
}

function playwright(profile: string, reportDir: string, env: Record<string, string> = {}) {
  return run(
    process.execPath,
    [PLAYWRIGHT, 'test', '-c', CONFIG, '--project', 'gatecheck', '--grep', SLICE],
    dir,
    200_000,
    cleanEnv({
      GUEST_PROFILE: profile,
      GATECHECK_REPORT_DIR: path.join(dir, reportDir),
      GITHUB_ACTIONS: 'true',
      ...env,
    }),
  );
}

/** The compiled `gatecheck` bin, as a user's CI calls it. */
function gatecheck(args: readonly string[], env: Record<string, string> = {}) {
  return runNode([gatecheckBin(), ...args], dir, cleanEnv({ GITHUB_ACTIONS: 'true', ...env }));
}

const closing = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('gatecheck: exit '));
const annotations = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::'));

test("a baseline with one defect, then a second defect waived: the config route exits as the gate says, with the CLI's line and annotations", async () => {
  mock = await startDefectiveMock(['method-no-allow']);
  const profile = await profileFor(mock.url, 'target.profile.json');
  const base = await playwright(profile, 'baseline');
  expect(base.code, base.stdout + base.stderr).toBe(1);
  expect(closing(base.stdout)).toEqual(['gatecheck: exit 1 (not conformant)']);
  expect((await gatecheck(['gate', 'baseline'])).code).toBe(1);
  await mock.close();

  mock = await startDefectiveMock(['method-no-allow', 'missing-credentials-403']);
  const profile2 = await profileFor(mock.url, 'target2.profile.json');
  await writeFile(
    path.join(dir, 'waivers.json'),
    JSON.stringify({
      waivers: [{ rule: 'auth.401.*', reason: '403 for missing credentials until 4.3', until: '2026-12-31' }],
    }),
  );
  const gateEnv = {
    GATECHECK_WAIVERS: path.join(dir, 'waivers.json'),
    GATECHECK_BASELINE: path.join(dir, 'baseline/conformance.json'),
    GATECHECK_TODAY: '2026-11-27',
  };
  const viaConfig = await playwright(profile2, 'config-route', gateEnv);
  expect(viaConfig.code, viaConfig.stdout + viaConfig.stderr).toBe(0);
  const viaCli = await gatecheck(
    [
      '--base-url',
      mock.url,
      '--profile',
      profile2,
      '--only',
      ONLY,
      '--report-dir',
      'cli-route',
      '--waivers',
      'waivers.json',
      '--baseline',
      'baseline/conformance.json',
    ],
    { GATECHECK_TODAY: '2026-11-27' },
  );
  expect(viaCli.code, viaCli.stdout + viaCli.stderr).toBe(0);
  // The same decision, said the same way, once each.
  expect(closing(viaConfig.stdout)).toEqual(closing(viaCli.stdout));
  expect(closing(viaConfig.stdout)[0]).toMatch(
    /^gatecheck: exit 0 \(Gate passed: 2 failing rules accepted \(1 waived, 1 known from the baseline\)/,
  );
  expect(annotations(viaConfig.stdout).map((a) => a.split('::')[1])).toEqual(
    annotations(viaCli.stdout).map((a) => a.split('::')[1]),
  );
  expect(annotations(viaConfig.stdout).filter((a) => a.startsWith('::error'))).toEqual([]);
  const read = await gatecheck(['gate', 'config-route']);
  expect(read.code).toBe(0);
  expect(closing(read.stdout)).toEqual(closing(viaConfig.stdout));
});

test('a target that does not answer: one line, no check run; gatecheck gate and the CLI exit 3', async () => {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  const profile = await profileFor(`http://127.0.0.1:${port}`, 'dead.profile.json');
  const viaConfig = await playwright(profile, 'dead');
  expect(viaConfig.code).toBe(1);
  expect(viaConfig.stdout).toContain(`target unreachable: http://127.0.0.1:${port}: connection refused`);
  expect(viaConfig.stdout).not.toContain('RuleViolation');
  expect(closing(viaConfig.stdout)[0]).toMatch(
    /^gatecheck: exit 3 \(target unreachable: http:\/\/127\.0\.0\.1:\d+: connection refused\)/,
  );
  expect((await gatecheck(['gate', 'dead'])).code).toBe(3);
  const viaCli = await gatecheck(['--profile', profile, '--only', ONLY]);
  expect(viaCli.code).toBe(3);
});
