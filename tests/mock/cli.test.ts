/**
 * `npm run mock` (mock/cli.ts) as a developer meets it: up quickly with a banner of URL, credentials and curl
 * examples; clean stop on SIGTERM/SIGINT; one line and exit 2 for a bad flag or configuration.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ADMIN, authorization, call, USER } from './mock-support.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function cli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function finish(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the banner once the CLI printed its last line. */
function banner(child: ChildProcess): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops it.')) resolve(out);
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before the banner: ${out}`)));
  });
}

for (const [args, pattern] of [
  [['--bogus'], /^gatecheck mock: Unknown option '--bogus'.* \(see --help\)\n$/],
  [['--port', 'abc'], /^gatecheck mock: --port: expected an integer from 0 to 65535, got "abc"\n$/],
  [['--port', '70000'], /^gatecheck mock: --port: expected an integer/],
  [['extra'], /^gatecheck mock: Unexpected argument 'extra'/],
  [['--config', 'no-such-config.json'], /^gatecheck mock: config no-such-config\.json: file not found\n$/],
] as const) {
  test(`npm run mock -- ${args.join(' ')} → one line on stderr naming it, exit 2`, async () => {
    const { code, stderr, stdout } = await finish(cli([...args]));
    expect(code).toBe(2);
    expect(stderr).toMatch(pattern);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
  });
}

test('npm run mock -- --config <file with a bad policy> → one line naming the policy field, exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-cli-'));
  const config = join(dir, 'mock.json');
  writeFileSync(
    config,
    JSON.stringify({ policy: { routes: [{ path: '/users', methods: { GET: { schemes: ['digest'] } } }] } }),
  );
  const { code, stderr } = await finish(cli(['--config', config]));
  rmSync(dir, { recursive: true, force: true });
  expect(code).toBe(2);
  expect(stderr).toBe(
    'gatecheck mock: policy.routes[0].methods.GET.schemes[0]: must be one of bearer, basic, apikey (in the inline policy)\n',
  );
});

test('npm run mock -- --help → usage naming every flag, exit 0', async () => {
  const { code, stdout } = await finish(cli(['--help']));
  expect(code).toBe(0);
  for (const flag of ['--port', '--host', '--config', '--data', '--help']) expect(stdout).toContain(flag);
});

test('a port already in use → one line with what to do (another --port, or --port 0), exit 1', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address() as { port: number };
  try {
    const { code, stderr } = await finish(cli(['--port', String(port)]));
    expect(code).toBe(1);
    expect(stderr).toBe(
      `gatecheck mock: cannot listen on 127.0.0.1:${port}: EADDRINUSE: the port is taken; stop what holds it, ` +
        'or choose another with --port <n> (--port 0: any free port)\n',
    );
  } finally {
    blocker.close();
  }
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`npm run mock -- --port 0: banner with URL, credentials per identity and scheme, curl examples; ${signal} stops it (exit 0)`, async () => {
    const child = cli(['--port', '0']);
    const done = finish(child);
    const started = Date.now();
    const text = await banner(child);
    // "Up in about a second" — generous bound for a loaded CI machine.
    expect(Date.now() - started).toBeLessThan(10_000);

    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    expect(url).toBeDefined();
    expect((await call(url, 'GET', '/users')).status).toBe(200);

    for (const name of ['admin (alice)', 'user (bob)', 'ratelimit (carol)']) expect(text).toContain(name);
    expect(text).toContain(`${USER.basic.username}:${USER.basic.password}`);
    expect(text).toContain(`Authorization: Apikey ${ADMIN.apikey}`);
    // Whole values: a shortened token cannot be pasted.
    expect(text).toContain(`Authorization: Bearer ${ADMIN.bearer}\n`);
    const curls = text.split('\n').filter((line) => line.trim().startsWith('curl '));
    expect(curls).toHaveLength(4);
    // The printed token-endpoint example works (RFC 6749 §4.4: client credentials, Basic client auth).
    const tokenCurl = curls.find((line) => line.includes('/oauth/token') && !line.includes('$(')) as string;
    const [clientId, clientSecret] = (/-u '([^:']+):([^']+)'/.exec(tokenCurl) ?? []).slice(1) as [
      string,
      string,
    ];
    const issued = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(issued.status).toBe(200);
    // The printed credentials work.
    expect(
      (await call(url, 'GET', '/protected', { headers: { authorization: authorization(USER, 'basic') } }))
        .status,
    ).toBe(200);

    child.kill(signal);
    const { code, stdout } = await done;
    expect(code).toBe(0);
    expect(stdout).toContain(`stopped (${signal})`);
    await expect(call(url, 'GET', '/users')).rejects.toThrow();
  });
}

/** True once nothing accepts connections on the URL's port; polls a bounded number of times. */
async function closesWithin(url: string, attempts: number): Promise<boolean> {
  const { port } = new URL(url);
  for (let i = 0; i < attempts; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!open) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

test('npm run mock, then one SIGTERM to the npm process: the mock stops (no process layer left serving)', async () => {
  // Its own process group, so whatever survives a failing run is removed with the group in `finally`.
  const npm = spawn('npm', ['run', '--silent', 'mock', '--', '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    const text = await banner(npm);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    expect((await call(url, 'GET', '/users')).status).toBe(200);
    npm.kill('SIGTERM');
    expect(await closesWithin(url, 100), `${url} still accepts connections after SIGTERM to npm`).toBe(true);
  } finally {
    try {
      if (npm.pid) process.kill(-npm.pid, 'SIGKILL');
    } catch {
      // The group is already gone: the expected case.
    }
  }
});
