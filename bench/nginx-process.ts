/**
 * A real nginx `limit_req` in front of an upstream (the mock), for the tests and the politeness benchmark:
 * Debian's nginx (nginx-light) on a free loopback port with a temporary prefix, always stopped. Where the
 * binary is missing, `NGINX_MISSING` says so and the tests skip (CI installs it: .ci/run).
 *
 * The limit is nginx's own (ngx_http_limit_req_module): a leaky bucket per key at `rate` requests per second
 * (or per minute), `burst` requests queued — or, with `nodelay`, served at once — and every request past that
 * refused with `limit_req_status` (503 by default; 429 as most deployments set it), with no Retry-After. The
 * key is the client address (`$binary_remote_addr`), or the address and the route (`$binary_remote_addr$uri`),
 * as a zone per `location` gives.
 *
 * The access log writes one line per request — arrival time (`$msec`), status, method, path — so a run's pace
 * can be traced from the target's side (`arrivals()`).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

const BINARY = '/usr/sbin/nginx';

/** Undefined when nginx is there; else the reason the nginx tests skip. */
export const NGINX_MISSING: string | undefined = existsSync(BINARY)
  ? undefined
  : `${BINARY} is not installed (apt-get install nginx-light): the tests against a real nginx limit_req are skipped`;

export interface NginxLimit {
  /** Requests per second (nginx `rate=Nr/s`), or per minute when `perMinute`. */
  readonly rate: number;
  readonly perMinute?: boolean;
  /** `burst=`: requests beyond the rate the bucket holds. */
  readonly burst: number;
  /** Serve the burst at once instead of queueing it (`nodelay`). */
  readonly nodelay: boolean;
  /** `limit_req_status`; nginx's default is 503. */
  readonly status: 429 | 503;
  /** `address`: one bucket per client address; `route`: per address and path. */
  readonly key: 'address' | 'route';
}

export interface Arrival {
  /** Epoch ms, as nginx logged it (`$msec`). */
  readonly at: number;
  readonly status: number;
  readonly method: string;
  readonly path: string;
}

export interface TestNginx {
  readonly url: string;
  readonly port: number;
  /** Every request nginx has logged so far. */
  arrivals(): Arrival[];
  /** Stops nginx (SIGQUIT, then SIGKILL) and removes its directory. */
  stop(): Promise<void>;
}

/** The configuration: everything under `dir`, nothing read from /etc/nginx. */
export function nginxConfig(dir: string, port: number, upstream: URL, limit: NginxLimit): string {
  const rate = `${limit.rate}r/${limit.perMinute ? 'm' : 's'}`;
  const key = limit.key === 'route' ? '$binary_remote_addr$uri' : '$binary_remote_addr';
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  log_format trace '$msec $status $request_method $uri';
  access_log ${dir}/access.log trace;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # Long credentials (the fuzzing's overlong ones) reach the upstream rather than nginx's own 400.
  large_client_header_buffers 8 64k;
  client_max_body_size 1m;
  limit_req_zone ${key} zone=limited:1m rate=${rate};
  limit_req_status ${limit.status};
  upstream target { server ${upstream.hostname}:${upstream.port}; keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / {
      limit_req zone=limited burst=${limit.burst}${limit.nodelay ? ' nodelay' : ''};
      proxy_pass http://target;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
    }
  }
}
`;
}

export async function startNginx(options: { upstream: string; limit: NginxLimit }): Promise<TestNginx> {
  if (NGINX_MISSING) throw new Error(NGINX_MISSING);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-nginx-'));
  // Run as root, nginx's workers are `nobody`: they must reach the temporary paths.
  chmodSync(dir, 0o755);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, new URL(options.upstream), options.limit));
  const child: ChildProcess = spawn(BINARY, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const readError = (): string => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8').slice(-500);
    } catch {
      return '';
    }
  };
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it accepts a connection on its port (nginx prints nothing when it starts well).
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const why = `${stderr}${readError()}`.trim();
      await stop();
      throw new Error(`nginx exited before it listened: ${why}`);
    }
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not listen within 10 s: ${readError()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    arrivals: () =>
      parseAccessLog(
        existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : '',
      ),
    stop,
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `1732612345.123 200 GET /users` per line. */
export function parseAccessLog(text: string): Arrival[] {
  const out: Arrival[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+\.\d+) (\d{3}) (\S+) (\S*)$/.exec(line.trim());
    if (!m) continue;
    out.push({
      at: Math.round(Number(m[1]) * 1000),
      status: Number(m[2]),
      method: m[3] ?? '',
      path: m[4] ?? '',
    });
  }
  return out;
}
