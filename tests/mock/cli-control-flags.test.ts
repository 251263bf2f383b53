/**
 * The protection flags of `npm run mock` (mock/cli/control-flags.ts): each sets its configuration key, the
 * banner says what is on (the control URL and token among it), and a bad value is one line and exit 2.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { REDIS_MISSING, startRedis } from '../../bench/redis-process.ts';
import { ADMIN, authorization, call } from './mock-support.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function cli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finish(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

for (const [args, message] of [
  [['--rate-limit', 'lots'], '--rate-limit: expected <requests>/<seconds> (e.g. 100/10) or off, got "lots"'],
  [['--ban', '5'], '--ban: expected <requests>/<seconds> (e.g. 200/30) or off, got "5"'],
  [['--fault-rate', '1.5'], '--fault-rate: expected a probability from 0 to 1, got "1.5"'],
  [['--control', 'maybe'], '--control: expected on, off or loopback, got "maybe"'],
  [['--rate-limit-key', 'ip'], '--rate-limit-key: expected identity, address or route, got "ip"'],
  [['--burst', '10/0'], '--burst: expected <requests>/<seconds> (e.g. 10/0.25), got "10/0"'],
  [['--redis-url', 'http://127.0.0.1:6379'], '--redis-url: expected a redis:// or rediss:// URL'],
  [
    ['--redis-prefix', 'a:b'],
    '--redis-prefix: expected 1 to 64 letters, digits, _ . or - (no colon), got "a:b"',
  ],
  [['--redis-unavailable', 'wait'], '--redis-unavailable: expected insurance or refuse, got "wait"'],
  [['--proxy-header', 'x-real-ip'], '--proxy-header: expected x-forwarded-for or forwarded, got "x-real-ip"'],
  [['--proxy-header', 'Forwarded'], '--proxy-header: expected x-forwarded-for or forwarded, got "Forwarded"'],
  [
    ['--block-ip', '10.0.0.0/40'],
    'config.access.blockedIps[0]: "10.0.0.0/40" is not an IPv4 or IPv6 address or CIDR range',
  ],
] as const) {
  test(`npm run mock -- ${args.join(' ')} → one line naming the flag, exit 2`, async () => {
    const { code, stderr, stdout } = await finish(cli([...args]));
    expect(code).toBe(2);
    expect(stderr.startsWith(`gatecheck mock: ${message}`), stderr).toBe(true);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
  });
}

/** The mock started with `args` on port 0: its banner and URL once it is up, and how to stop it. */
async function serve(args: string[]): Promise<{ text: string; url: string; stop: () => Promise<unknown> }> {
  const child = cli(['--port', '0', ...args]);
  const done = finish(child);
  const text = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops it.')) resolve(out);
    });
    child.on('close', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
  return {
    text,
    url,
    stop: () => {
      child.kill('SIGTERM');
      return done;
    },
  };
}

test('npm run mock -- --rate-limit 2/60 --control-token … → the banner shows the limit and the control API; the flags apply', async () => {
  const token = 'cli-flags-test-token-0123';
  const { text, url, stop } = await serve(['--rate-limit', '2/60', '--ban', 'off', '--control-token', token]);
  try {
    // The bundled /limited route keeps a group of its own (docs/mock.md "Rate limits").
    expect(text).toContain('limits  2 requests per 60 s per client (+1 route group); headers ietf');
    expect(text).toContain(`control ${url}/__gatecheck/  token ${token}`);
    expect(text).toContain('X-Gatecheck-Fault: 500 | drop | latency=<ms> honoured');
    const headers = { authorization: authorization(ADMIN, 'basic') };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(url, 'GET', '/protected', { headers })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const journal = await call(url, 'GET', '/__gatecheck/journal', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(journal.status).toBe(200);
  } finally {
    await stop();
  }
});

test('npm run mock -- --trust-proxy 127.0.0.1 --proxy-header forwarded → the banner names Forwarded; Forwarded is read, X-Forwarded-For ignored', async () => {
  const proxy = ['--trust-proxy', '127.0.0.1', '--proxy-header', 'forwarded'];
  const { text, url, stop } = await serve([...proxy, '--block-ip', '203.0.113.0/24']);
  try {
    expect(text).toContain('  proxies Forwarded believed from 127.0.0.1\n');
    const admin = { authorization: authorization(ADMIN, 'basic') };
    const status = async (headers: Record<string, string>): Promise<number> =>
      (await call(url, 'GET', '/protected', { headers: { ...admin, ...headers } })).status;
    expect(await status({ forwarded: 'for=203.0.113.5', 'x-forwarded-for': '198.51.100.5' })).toBe(403);
    expect(await status({ forwarded: 'for=198.51.100.5', 'x-forwarded-for': '203.0.113.5' })).toBe(200);
  } finally {
    await stop();
  }
});

test('npm run mock -- --trust-proxy 127.0.0.1 (no --proxy-header) → the banner names X-Forwarded-For; a client-sent Forwarded is ignored', async () => {
  const { text, url, stop } = await serve(['--trust-proxy', '127.0.0.1', '--block-ip', '203.0.113.0/24']);
  try {
    expect(text).toContain('  proxies X-Forwarded-For believed from 127.0.0.1\n');
    const admin = { authorization: authorization(ADMIN, 'basic') };
    const spoofed = await call(url, 'GET', '/protected', {
      headers: { ...admin, forwarded: 'for=198.51.100.5', 'x-forwarded-for': '203.0.113.5' },
    });
    expect(spoofed.status).toBe(403);
  } finally {
    await stop();
  }
});

test('npm run mock -- --help lists the protection flags, each on a line of its own', async () => {
  const { code, stdout } = await finish(cli(['--help']));
  expect(code).toBe(0);
  for (const flag of [
    '--rate-limit',
    '--rate-limit-key',
    '--burst',
    '--redis-url',
    '--redis-prefix',
    '--redis-unavailable',
    '--failed-attempt-limit',
    '--ban',
    '--block-ip',
    '--block-country',
    '--trust-proxy',
    '--proxy-header',
    '--fault-header',
    '--fault-rate',
    '--control',
    '--control-token',
    '--clock-offset',
  ]) {
    // At the start of a usage line, not merely mentioned in another flag's description.
    expect(stdout).toMatch(new RegExp(`^ +${flag} `, 'm'));
  }
});

test('npm run mock -- --redis-url … --redis-prefix cli → the banner names the shared store (password redacted); requests are served', async () => {
  test.skip(REDIS_MISSING !== undefined, REDIS_MISSING);
  const redis = await startRedis();
  try {
    const url = redis.url.replace('redis://', 'redis://:not-this-one@');
    // No password is set on this Redis: AUTH with one fails, and the mock must say so without the password.
    const mock = await serve([
      '--redis-url',
      redis.url,
      '--redis-prefix',
      'cli',
      '--rate-limit-key',
      'address',
    ]);
    try {
      expect(mock.text).toContain(`store   Redis ${redis.url}, keys cli:*; unreachable → insurance`);
      expect(mock.text).toContain('per address (every request)');
      const answer = await call(mock.url, 'GET', '/users');
      expect(answer.status).toBe(200);
    } finally {
      await mock.stop();
    }
    const wrong = await serve(['--redis-url', url]);
    const done = await wrong.stop();
    expect(JSON.stringify(done)).not.toContain('not-this-one');
    expect(wrong.text).toContain('redis://:[redacted]@127.0.0.1');
  } finally {
    await redis.stop();
  }
});
