/**
 * `gatecheck init` on the mock's own `/openapi.json` (docs/package.md "gatecheck init"): the profile it writes
 * names every credential as an environment variable; with those variables set, the default catalogue run
 * against that mock skips no rule that a run on fixtures/mock.profile.json checks — what OpenAPI cannot say
 * (JWT verification, the rate limit, the fault header, blocked clients, the body limit) comes from the
 * document's `x-gatecheck-*` extensions.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import type { ConformanceReport } from '../../../specs/report/model.ts';
import { MOCK_PROFILE, type Scratch, scratch } from '../cli.ts';

const FIXTURES = path.join(import.meta.dirname, '../../../fixtures');

type Json = Record<string, unknown>;

/** The mock's credentials under the names init suggests: its OAuth clients, Basic pairs and keys; its test issuer's key. */
async function mockCredentials(): Promise<Record<string, string>> {
  const oauth = JSON.parse(await readFile(path.join(FIXTURES, 'mock.oauth.profile.json'), 'utf8')) as {
    identities: Record<string, Json>;
  };
  const plain = JSON.parse(await readFile(MOCK_PROFILE, 'utf8')) as { jwt: { privateJwk: Json } };
  const env: Record<string, string> = { GATECHECK_JWT_PRIVATE_JWK: JSON.stringify(plain.jwt.privateJwk) };
  for (const [name, identity] of Object.entries(oauth.identities)) {
    const prefix = `GATECHECK_${name.toUpperCase()}_`;
    const client = (identity.token as { oauth2: Json }).oauth2;
    const basic = identity.basic as Json;
    Object.assign(env, {
      [`${prefix}CLIENT_ID`]: client.clientId,
      [`${prefix}CLIENT_SECRET`]: client.clientSecret,
      [`${prefix}USERNAME`]: basic.username,
      [`${prefix}PASSWORD`]: basic.password,
      [`${prefix}APIKEY`]: identity.apikey,
    });
  }
  return env;
}

/** Every `{ "env": NAME }` in the profile. */
function envNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(envNames);
  if (value === null || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'env') return [String((value as Json).env)];
  return Object.values(value).flatMap(envNames);
}

async function skipped(s: Scratch, reportDir: string): Promise<string[]> {
  const report: ConformanceReport = await s.report(reportDir);
  return report.rules
    .filter((r) => r.verdict === 'skip')
    .map((r) => r.id)
    .sort();
}

// Two whole conformance runs in child processes, one after the other, on a shared machine.
test.describe.configure({ timeout: 420_000 });

let mock: RunningMock;
let s: Scratch;

test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
  s = await scratch();
});

test.afterAll(async () => {
  await mock?.close();
  await s?.dispose();
});

test("init on the mock's /openapi.json, credentials from the environment → the default catalogue skips no more rules than on fixtures/mock.profile.json", async () => {
  // --writes: the mock's POST /users is a collection the write rules may use (a user record, no job, no cost).
  const init = await s.gatecheck([
    'init',
    `${mock.url}/openapi.json`,
    '--out',
    'init.profile.json',
    '--writes',
  ]);
  expect(init.code, init.stderr).toBe(0);
  const text = await readFile(path.join(s.dir, 'init.profile.json'), 'utf8');
  const env = await mockCredentials();

  // Every credential is an environment reference to a name supplied here; no literal secret.
  const names = envNames(JSON.parse(text));
  expect(names.length).toBeGreaterThan(0);
  expect(names.filter((name) => !(name in env))).toEqual([]);
  const secrets = Object.entries(env).filter(([name]) => /SECRET|PASSWORD|APIKEY/.test(name));
  for (const [name, secret] of secrets) expect(text, name).not.toContain(secret);
  expect(text).not.toContain(JSON.parse(env.GATECHECK_JWT_PRIVATE_JWK as string).d);

  const fromInit = await s.gatecheck(
    ['--base-url', mock.url, '--profile', 'init.profile.json', '--report-dir', 'from-init'],
    env,
  );
  expect(fromInit.code, `${fromInit.stdout.slice(-3000)}\n${fromInit.stderr.slice(-2000)}`).toBe(0);
  // The bundled mock the CLI starts for the repository's own profile: a fresh one, its rate-limit identity unused.
  const fromFixture = await s.gatecheck(['--profile', MOCK_PROFILE, '--report-dir', 'from-fixture']);
  expect(fromFixture.code, fromFixture.stderr.slice(-2000)).toBe(0);

  const initSkipped = await skipped(s, 'from-init');
  const fixtureSkipped = await skipped(s, 'from-fixture');
  expect(initSkipped.filter((id) => !fixtureSkipped.includes(id))).toEqual([]);
  expect(initSkipped.length).toBeLessThanOrEqual(fixtureSkipped.length);
  // Nothing the init profile ran failed: its guesses (the sample item, the writer, the 405 method) hold.
  const failed = (await s.report('from-init')).rules.filter((r) => r.verdict === 'fail').map((r) => r.id);
  expect(failed).toEqual([]);
});
