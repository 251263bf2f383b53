/**
 * The protection flags of `npm run mock` (mock/control/cli-flags.ts): each sets its configuration key, the
 * banner says what is on (the control URL and token among it), and a bad value is one line and exit 2.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ADMIN, authorization, call } from '../mock-support.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

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

test('npm run mock -- --rate-limit 2/60 --control-token … → the banner shows the limit and the control API; the flags apply', async () => {
  const token = 'cli-flags-test-token-0123';
  const child = cli(['--port', '0', '--rate-limit', '2/60', '--ban', 'off', '--control-token', token]);
  const done = finish(child);
  const text = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ctrl-C stops it.')) resolve(out);
    });
    child.on('close', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  try {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] as string;
    expect(text).toContain('limits  2 requests per 60 s per client; headers ietf');
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
    child.kill('SIGTERM');
    await done;
  }
});

test('npm run mock -- --help lists the protection flags', async () => {
  const { code, stdout } = await finish(cli(['--help']));
  expect(code).toBe(0);
  for (const flag of [
    '--rate-limit',
    '--failed-attempt-limit',
    '--ban',
    '--block-ip',
    '--block-country',
    '--trust-proxy',
    '--fault-header',
    '--fault-rate',
    '--control',
    '--control-token',
    '--clock-offset',
  ]) {
    expect(stdout).toContain(flag);
  }
});
