/**
 * A key is sent with the target's own word (profile `apikeyScheme`, docs/profile.md; RFC 9110 §11.4): the
 * value forms, the fuzz arbitrary's, and a run against a target that takes its keys as `Token <key>` only —
 * the mock behind scripts/stand-in-proxy.ts, its /protected open to keys too. With `"apikeyScheme":
 * "Token"` every rule that sends a key passes there; with the seed's default `Apikey`, the target refuses the
 * valid key, the success rule fails and the key's own checks cannot start: the word is what the run stands on.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import type { Policy } from '../../mock/routing/policy.ts';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { type RunningStandIn, startStandIn } from '../../scripts/stand-in-proxy.ts';
import { validApikeyAuthorization } from '../../specs/fuzz/arbitraries/validApikeyAuthorization.ts';
import { apikeyAuthorization, apikeyForm } from '../../specs/profile/apikey-scheme.ts';
import { MOCK_PROFILE, runSuite, type SuiteRun, specsOf } from '../helpers/run-suite.ts';

test('the forms: the seed default, a word, a word and a parameter (quoted-string, RFC 9110 §5.6.4), the key alone', () => {
  expect(apikeyAuthorization(apikeyForm({}), 'k1')).toBe('Apikey k1');
  expect(apikeyAuthorization(apikeyForm({ apikeyScheme: 'SSWS' }), 'k1')).toBe('SSWS k1');
  expect(apikeyAuthorization(apikeyForm({ apikeyScheme: 'MediaBrowser Token' }), 'a"b\\c')).toBe(
    'MediaBrowser Token="a\\"b\\\\c"',
  );
  expect(apikeyAuthorization(apikeyForm({ apikeyScheme: '' }), 'k1')).toBe('k1');
});

test('the fuzz arbitrary of a wrong key follows the form: its word in any case, its parameter, or the bare key', () => {
  const sample = (form: Parameters<typeof validApikeyAuthorization>[0]) =>
    fc.sample(validApikeyAuthorization(form), { numRuns: 50, seed: 7 });
  expect(sample(undefined).every((v) => /^apikey +[\w.~+/-]+=*$/i.test(v))).toBe(true);
  expect(sample(apikeyForm({ apikeyScheme: 'Token' })).every((v) => /^token +[\w.~+/-]+=*$/i.test(v))).toBe(
    true,
  );
  expect(
    sample(apikeyForm({ apikeyScheme: 'MediaBrowser Token' })).every((v) =>
      /^mediabrowser Token="[\w.~+/-]+=*"$/i.test(v),
    ),
  ).toBe(true);
  expect(sample(apikeyForm({ apikeyScheme: '' })).every((v) => /^[\w.~+/-]+=*$/.test(v))).toBe(true);
});

/** The mock's policy with /protected taking keys too. */
const KEYS_ON_PROTECTED = JSON.parse(
  readFileSync(new URL('../../fixtures/policy.json', import.meta.url), 'utf8').replace(
    '"GET": { "schemes": ["bearer", "basic"] }',
    '"GET": { "schemes": ["bearer", "basic", "apikey"] }',
  ),
) as Policy;

const RULES = [
  'success.200.protected',
  'auth.scheme.case-insensitive',
  'auth.401.invalid-apikey',
  'auth.401.challenge-per-scheme',
  'auth.malformed.status',
  'auth.boundary.prefix',
  'auth.boundary.one-char-changed',
];

let mock: RunningMock;
let standIn: RunningStandIn;
/** The same mock taking a key sent alone, the whole field value (apikeyScheme ""). */
let bareStandIn: RunningStandIn;
/** The same mock taking a key as an unquoted parameter, `Token token=<key>` (apikeyScheme "Token token="). */
let paramStandIn: RunningStandIn;
let dir: string;
test.beforeAll(async () => {
  mock = await startMock({ port: 0, host: '127.0.0.1', policy: KEYS_ON_PROTECTED });
  standIn = await startStandIn({ routes: [], keyWord: 'Token' }, mock.url);
  bareStandIn = await startStandIn({ routes: [], keyWord: '' }, mock.url);
  paramStandIn = await startStandIn({ routes: [], keyWord: 'Token token=' }, mock.url);
  dir = await mkdtemp(join(tmpdir(), 'gatecheck-apikey-scheme-'));
});
test.afterAll(async () => {
  await standIn?.close();
  await bareStandIn?.close();
  await paramStandIn?.close();
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The rules above against the `Token` target, with the mock's profile (keys on /protected) and `apikeyScheme`. */
async function runWith(
  apikeyScheme: string | undefined,
  target: RunningStandIn = standIn,
  rules: readonly string[] = RULES,
  protectedSchemes: readonly string[] = ['bearer', 'basic', 'apikey'],
): Promise<SuiteRun> {
  const profile = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as Record<string, unknown> & {
    endpoints: { protected: { schemes: string[] } };
  };
  profile.endpoints.protected.schemes = [...protectedSchemes];
  if (apikeyScheme !== undefined) profile.apikeyScheme = apikeyScheme;
  const profilePath = join(dir, `${apikeyScheme ?? 'default'}-${protectedSchemes.join('-')}.profile.json`);
  await writeFile(profilePath, JSON.stringify(profile));
  return runSuite({
    args: ['--workers=1', `--grep=@rule:(${rules.map((r) => r.replaceAll('.', '\\.')).join('|')})( |$)`],
    env: { BASE_URL: target.url, GATECHECK_PROFILE: profilePath },
  });
}

/** The verdicts of every test of `id`: passed, failed or skipped. */
function statuses(run: SuiteRun, id: string): string[] {
  return specsOf(run, id).flatMap((s) => s.tests.map((t) => t.results[0]?.status ?? 'none'));
}

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test('apikeyScheme "Token" against a target that takes Token keys only → every rule that sends a key passes', async () => {
  const run = await runWith('Token');
  expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr}`).toBe(0);
  for (const id of RULES) {
    expect(statuses(run, id).length, id).toBeGreaterThan(0);
    expect(statuses(run, id), id).not.toContain('failed');
  }
  // The key's own case check ran (not skipped): its word respelled, the valid key accepted.
  expect(statuses(run, 'auth.scheme.case-insensitive')).toEqual(['passed', 'passed', 'passed']);
});

test('the seed default "Apikey" against the same target → the valid key is refused: the success rule fails, the key\'s case check cannot start', async () => {
  const run = await runWith(undefined);
  expect(run.code).not.toBe(0);
  expect(statuses(run, 'success.200.protected')).toContain('failed');
  expect(statuses(run, 'auth.scheme.case-insensitive')).toEqual(['passed', 'passed', 'skipped']);
});

test('apikeyScheme "" (the key alone) against a target that takes bare keys → the challenge checks pass: a key has no word for a challenge to name', async () => {
  const challengeRules = ['success.200.protected', 'auth.401.challenge', 'auth.401.challenge-per-scheme'];
  // /protected declared as taking keys only: a 401 there has no word of the request's scheme to name.
  const run = await runWith('', bareStandIn, challengeRules, ['apikey']);
  expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr}`).toBe(0);
  for (const id of challengeRules) {
    expect(statuses(run, id).length, id).toBeGreaterThan(0);
    expect(statuses(run, id), id).not.toContain('failed');
    expect(statuses(run, id), id).toContain('passed');
  }
});

test('apikeyScheme "Token token=" against a target that takes Token token=<key> → the key is sent as written and accepted; "Token" is refused there', async () => {
  const rules = ['success.200.protected', 'auth.401.invalid-apikey'];
  const run = await runWith('Token token=', paramStandIn, rules, ['apikey']);
  expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr}`).toBe(0);
  for (const id of rules) {
    expect(statuses(run, id), id).toContain('passed');
    expect(statuses(run, id), id).not.toContain('failed');
  }
  const word = await runWith('Token', paramStandIn, ['success.200.protected'], ['apikey']);
  expect(statuses(word, 'success.200.protected')).toContain('failed');
});

/** The auth-param's checks (#37; RFC 9110 §11.2, §5.6.3): near misses of the name, its case, BWS around "=". */
const PARAM_RULES = [
  'auth.credential.near-miss',
  'auth.scheme.case-insensitive',
  'auth.scheme.separator-spaces',
];

test('apikeyScheme "Token token=" against a target that parses the auth-param (RFC 9110 §11.2) → near misses of the name refused; its case and BWS around "=" taken', async () => {
  const run = await runWith('Token token=', paramStandIn, PARAM_RULES, ['apikey']);
  expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr}`).toBe(0);
  for (const id of PARAM_RULES) {
    expect(statuses(run, id), id).toContain('passed');
    expect(statuses(run, id), id).not.toContain('failed');
  }
});

test('a target that takes the key from any parameter name ("Token tokem=<key>" as "Token token=<key>") → auth.credential.near-miss fails there, on the parameter name', async () => {
  // In front of the conformant stand-in: every parameter name is rewritten to "token" before it is parsed.
  const front = createServer((req, res) => {
    const auth = req.headers.authorization;
    const headers = { ...req.headers };
    if (auth !== undefined) headers.authorization = auth.replace(/^(\s*Token\s+)[^=\s]*(\s*=)/i, '$1token$2');
    const upstream = request(
      `${paramStandIn.url}${req.url ?? '/'}`,
      { method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  try {
    const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    const run = await runWith(
      'Token token=',
      { url, hits: new Map(), close: async () => {} },
      ['auth.credential.near-miss'],
      ['apikey'],
    );
    expect(run.code).not.toBe(0);
    expect(statuses(run, 'auth.credential.near-miss')).toContain('failed');
    const failure = specsOf(run, 'auth.credential.near-miss')
      .flatMap((s) => s.tests.flatMap((t) => t.results[0]?.errors ?? []))
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(failure).toMatch(/of auth-param name/);
  } finally {
    front.closeAllConnections();
    front.close();
  }
});
