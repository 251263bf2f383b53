/**
 * The mock's credentials under the names `gatecheck init` writes (issue #31): `gatecheck-mock --print-env`
 * prints them as `export` lines a shell evaluates, the signing key included; a profile init wrote from the
 * mock's `/openapi.json` then runs with nothing but that environment; and the banner's lines paste as they
 * are — each `Authorization:` line as a working header, each `NAME=value` as the variable print-env sets.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import { cleanEnv, ROOT, type RunResult } from '../report/synthetic.ts';

const MOCK_BIN = path.join(ROOT, 'bin/gatecheck-mock.js');
const GATECHECK_BIN = path.join(ROOT, 'bin/gatecheck.js');

function run(command: string, args: readonly string[], cwd: string, env = cleanEnv()): Promise<RunResult> {
  return new Promise((resolve) =>
    execFile(command, args, { cwd, env, timeout: 240_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** The environment after `eval "$(gatecheck-mock --print-env)"` in sh: only the GATECHECK_ variables. */
async function evaluated(cwd: string): Promise<Record<string, string>> {
  const shell = await run(
    'sh',
    [
      '-c',
      `eval "$("${process.execPath}" "${MOCK_BIN}" --print-env)" && node -e 'process.stdout.write(JSON.stringify(process.env))'`,
    ],
    cwd,
  );
  expect(shell.code, shell.stderr).toBe(0);
  const env = JSON.parse(shell.stdout) as Record<string, string>;
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('GATECHECK_')));
}

/** Every `{ "env": NAME }` of a profile's text. */
const envNames = (text: string): string[] =>
  [...text.matchAll(/\{\s*"env":\s*"([^"]+)"\s*\}/g)].map((m) => m[1] ?? '');

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-print-env-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('--print-env → comments and export lines only, exit 0, nothing started; a shell takes every value as the profiles hold it', async () => {
  const printed = await run(process.execPath, [MOCK_BIN, '--print-env'], dir);
  expect(printed.code, printed.stderr).toBe(0);
  for (const line of printed.stdout.trimEnd().split('\n'))
    expect(line).toMatch(/^(# |export GATECHECK_\w+=)/);
  expect(printed.stdout).not.toContain('listening');

  const env = await evaluated(dir);
  const plain = JSON.parse(await readFile(path.join(ROOT, 'fixtures/mock.profile.json'), 'utf8'));
  const oauth = JSON.parse(await readFile(path.join(ROOT, 'fixtures/mock.oauth.profile.json'), 'utf8'));
  expect(env).toMatchObject({
    GATECHECK_ADMIN_BEARER: plain.identities.admin.bearer,
    GATECHECK_USER_USERNAME: plain.identities.user.basic.username,
    // A password with a colon and a non-ASCII letter survives the shell's quoting.
    GATECHECK_USER_PASSWORD: plain.identities.user.basic.password,
    GATECHECK_RATELIMIT_APIKEY: plain.identities.ratelimit.apikey,
    GATECHECK_ADMIN_CLIENT_ID: oauth.identities.admin.token.oauth2.clientId,
    GATECHECK_ADMIN_CLIENT_SECRET: oauth.identities.admin.token.oauth2.clientSecret,
  });
  // The signing key: the profile's, and the same JSON as the file the banner names.
  const key = JSON.parse(env.GATECHECK_JWT_PRIVATE_JWK ?? 'null');
  expect(key).toEqual(plain.jwt.privateJwk);
  const file = JSON.parse(await readFile(path.join(ROOT, 'fixtures/keys/issuer.private.jwk.json'), 'utf8'));
  expect(file).toEqual(plain.jwt.privateJwk);
});

test.describe(() => {
  test.describe.configure({ timeout: 300_000 });
  const mock = mockForTests();

  test("a profile init wrote from the mock's /openapi.json runs with the print-env environment alone", async () => {
    const init = await run(
      process.execPath,
      // --writes: the mock is a stand-in, so its collection (the route that takes Apikey) may be written to.
      [GATECHECK_BIN, 'init', `${mock.url}/openapi.json`, '--out', 'p.json', '--writes'],
      dir,
    );
    expect(init.code, init.stderr).toBe(0);
    const names = envNames(await readFile(path.join(dir, 'p.json'), 'utf8'));
    expect(names.length).toBeGreaterThan(0);
    const env = await evaluated(dir);
    expect(
      names.filter((name) => !(name in env)),
      'variables init names that --print-env does not set',
    ).toEqual([]);
    const result = await run(
      process.execPath,
      [
        GATECHECK_BIN,
        '--base-url',
        mock.url,
        '--profile',
        'p.json',
        '--only',
        'success.200.protected,success.200.admin,auth.401.invalid-apikey,jwt.claims.valid-accepted',
        '--report-dir',
        'r',
      ],
      dir,
      cleanEnv(env),
    );
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/MUST\s+4 pass/);
  });

  test('every banner line pastes as it is: each Authorization line as a header, each NAME=value as print-env sets it', async () => {
    const started = await startCli(dir);
    try {
      const authorization = started.banner
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.startsWith('Authorization: '));
      expect(authorization.length).toBe(9);
      for (const line of authorization) {
        const value = line.slice('Authorization: '.length);
        const answer = await fetch(`${started.url}/protected`, { headers: { authorization: value } });
        // /protected takes Bearer and Basic (200); an Apikey line is well-formed, only not accepted there (401).
        expect(answer.status, line).toBe(value.startsWith('Apikey ') ? 401 : 200);
      }
      const env = await evaluated(dir);
      const assignments = [...started.banner.matchAll(/(GATECHECK_\w+)=('(?:[^']|'\\'')*'|\S+)/g)];
      expect(assignments.length).toBeGreaterThanOrEqual(12);
      for (const [, name, word] of assignments) {
        const value = (word ?? '').startsWith("'") ? (word ?? '').slice(1, -1).replace(/'\\''/g, "'") : word;
        expect(env[name ?? ''], name).toBe(value);
      }
      const keyFile = /GATECHECK_JWT_PRIVATE_JWK: .* in (\S+)/.exec(started.banner)?.[1] ?? '';
      expect(JSON.parse(await readFile(keyFile, 'utf8'))).toEqual(
        JSON.parse(env.GATECHECK_JWT_PRIVATE_JWK ?? ''),
      );
      expect(started.banner).toContain('eval "$(npx gatecheck-mock --print-env)"');
    } finally {
      await started.stop();
    }
  });
});

/** `gatecheck-mock --port 0` through its bin: its URL and banner, and how to stop it. */
async function startCli(cwd: string): Promise<{ url: string; banner: string; stop(): Promise<void> }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [MOCK_BIN, '--port', '0'], {
    cwd,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let text = '';
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('Ctrl-C stops it.')) resolve(text);
    });
    void exited.then(() => reject(new Error(`exited before its banner:\n${text}`)));
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] ?? '';
  return {
    url,
    banner,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
