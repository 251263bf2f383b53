/**
 * basic.base64.strict and basic.base64.excess-padding (specs/rules/basic-base64.ts): each case of RFC 4648
 * §3.3 at the level of its sentence. Characters outside the alphabet MUST be refused; excess pad characters
 * "MAY also be ignored". A target that ignores excess padding and refuses a stray "!" — nginx's Basic
 * decoder, here a loopback proxy in front of the mock that drops the excess pad — passes the MUST rule, and
 * the INFO rule reports the pad ignored; the mock itself (which refuses both) has it reported refused; and
 * nginx itself, where it is installed, is seen doing what the proxy imitates.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { MOCK_PROFILE, runSuite, type SuiteRun, specsOf } from '../helpers/run-suite.ts';

test.describe.configure({ timeout: 180_000 });

/** Debian's nginx (nginx-light), when installed. */
const NGINX = '/usr/sbin/nginx';

/** `Basic <payload>` with the pad characters past a whole base64 quantum removed (what nginx's decoder ignores). */
function withoutExcessPad(value: string): string {
  const match = /^(Basic )([A-Za-z0-9+/]*)(=*)$/i.exec(value);
  if (!match) return value;
  const [, scheme, body = '', pad = ''] = match;
  const needed = (4 - (body.length % 4)) % 4;
  return pad.length > needed ? `${scheme}${body}${'='.repeat(needed)}` : value;
}

/** A loopback proxy to `target` that drops excess padding from a Basic credential and forwards the rest as is. */
async function nginxLikeProxy(target: string): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((req: IncomingMessage, res) => {
    const headers = { ...req.headers };
    if (typeof headers.authorization === 'string')
      headers.authorization = withoutExcessPad(headers.authorization);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function run(baseUrl: string): Promise<SuiteRun> {
  return runSuite({
    env: { BASE_URL: baseUrl, GATECHECK_PROFILE: MOCK_PROFILE },
    args: ['--grep', '@rule:basic\\.base64\\.'],
  });
}

function outcome(run: SuiteRun, rule: string): { status: string | undefined; observation: string } {
  const [spec] = specsOf(run, rule);
  const t = spec?.tests[0];
  const notes = [...(t?.annotations ?? []), ...(t?.results.flatMap((r) => r.annotations) ?? [])];
  return { status: t?.status, observation: notes.map((a) => `${a.type}: ${a.description ?? ''}`).join('\n') };
}

let mock: RunningMock;
let proxy: Server;
test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
  proxy = await nginxLikeProxy(mock.url);
});
test.afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await mock?.close();
});

test('a target ignoring excess padding and refusing stray characters (nginx) passes basic.base64.strict; the pad is reported ignored', async () => {
  const { port } = proxy.address() as AddressInfo;
  const result = await run(`http://127.0.0.1:${port}`);
  expect(result.code, result.stderr.slice(-2000)).toBe(0);
  expect(outcome(result, 'basic.base64.strict').status).toBe('expected');
  const padding = outcome(result, 'basic.base64.excess-padding');
  expect(padding.status).toBe('expected');
  expect(padding.observation).toMatch(/excess pad → 2\d\d \(ignored: the credential was accepted\)/);
});

test('the mock (refusing both) passes basic.base64.strict; the pad is reported refused', async () => {
  const result = await run(mock.url);
  expect(result.code, result.stderr.slice(-2000)).toBe(0);
  expect(outcome(result, 'basic.base64.strict').status).toBe('expected');
  expect(outcome(result, 'basic.base64.excess-padding').observation).toMatch(
    /excess pad → 40[01] \(refused\)/,
  );
});

/** nginx with auth_basic in front of a static file, on a free loopback port; stopped by `stop()`. */
async function startNginx(dir: string, password: string): Promise<{ url: string; stop(): Promise<void> }> {
  const free = createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const { port } = free.address() as AddressInfo;
  await new Promise((resolve) => free.close(resolve));
  // Run as root, nginx's workers are another user (www-data): the folder must be readable to them.
  await chmod(dir, 0o755);
  await mkdir(path.join(dir, 'www/protected'), { recursive: true });
  await writeFile(path.join(dir, 'www/protected/index.html'), 'ok\n');
  // nginx's own plain-text scheme (ngx_http_auth_basic_module: "{PLAIN}"), so no hashing tool is needed.
  await writeFile(path.join(dir, 'htpasswd'), `alice:{PLAIN}${password}\n`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${dir}/tmp-${t};`)
    .join(' ');
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http { access_log off; ${temp}
  server { listen 127.0.0.1:${port};
    location / { auth_basic "gatecheck"; auth_basic_user_file ${dir}/htpasswd; root ${dir}/www; } } }
`,
  );
  const nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => nginx.on('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    i < 50 &&
    !(await fetch(url).then(
      () => true,
      () => false,
    ));
    i++
  )
    await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    url,
    stop: async () => {
      nginx.kill('SIGTERM');
      await exited;
    },
  };
}

test('nginx itself (auth_basic): refuses stray characters, ignores excess padding — basic.base64.strict passes, the pad is reported ignored', async () => {
  test.skip(!existsSync(NGINX), `${NGINX} is not installed (apt-get install nginx-light)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-nginx-'));
  const profile = JSON.parse(await readFile(MOCK_PROFILE, 'utf8')) as {
    identities: { admin: { basic: { username: string; password: string } } };
  };
  const { username, password } = profile.identities.admin.basic;
  const nginx = await startNginx(dir, password);
  try {
    const result = await runSuite({
      profile: {
        name: 'nginx auth_basic',
        endpoints: { protected: { path: '/protected/', method: 'GET', schemes: ['basic'] } },
        identities: { admin: { basic: { username, password } } },
      },
      env: { BASE_URL: nginx.url },
      args: ['--grep', '@rule:basic\\.base64\\.'],
    });
    expect(result.code, `${result.stdout.slice(-1500)}\n${result.stderr.slice(-1500)}`).toBe(0);
    const strict = outcome(result, 'basic.base64.strict');
    const log = await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
    expect(strict.status, `${strict.observation}\nnginx error.log:\n${log.slice(-1500)}`).toBe('expected');
    expect(outcome(result, 'basic.base64.excess-padding').observation).toMatch(/→ 200 \(ignored/);
  } finally {
    await nginx.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
