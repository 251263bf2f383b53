/**
 * Resident memory of the mock while N distinct clients arrive (each request from a new X-Forwarded-For address,
 * 127.0.0.1 trusted), with the rate limiter's key cap (`rateLimit.maxKeys`) and, for contrast, with a cap
 * higher than N (effectively none). The mock runs as its own process (`mock/cli.ts`), so the figures are its
 * RSS alone, read from /proc/<pid>/status (Linux).
 * Run: npx tsx tests/mock/access/memory.bench.ts [clients=200000] [maxKeys=10000]   (not a test: prints a table)
 */

import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENTS = Number(process.argv[2] ?? 200_000);
const MAX_KEYS = Number(process.argv[3] ?? 10_000);
const CONCURRENCY = 32;

function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 102.4) / 10;
}

const address = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function run(maxKeys: number): Promise<string[]> {
  const config = join(tmpdir(), `gatecheck-memory-bench-${process.pid}-${maxKeys}.json`);
  writeFileSync(config, JSON.stringify({ rateLimit: { maxKeys } }));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'mock/cli.ts',
      '--port',
      '0',
      '--trust-proxy',
      '127.0.0.1',
      '--rate-limit',
      '1000000/60',
      '--control',
      'off',
      '--fault-header',
      'off',
      '--config',
      config,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && out.includes('Ctrl-C stops it.')) resolve(m[1] as string);
    });
    child.on('close', (code) => reject(new Error(`mock exited ${code}: ${out}`)));
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const get = (xff: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(`${url}/users/1`, { agent, headers: { 'x-forwarded-for': xff } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  const send = async (from: number, count: number): Promise<void> => {
    let next = from;
    const end = from + count;
    const worker = async (): Promise<void> => {
      while (next < end) {
        const status = await get(address(next++));
        if (status !== 200) throw new Error(`status ${status}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };

  const pid = child.pid as number;
  await send(0, 2000); // warm-up: JIT, sockets, caches
  const before = rssMiB(pid);
  const t0 = performance.now();
  const rows: string[] = [];
  let sent = 2000;
  for (const target of [CLIENTS / 4, CLIENTS / 2, CLIENTS]) {
    await send(sent, target - sent);
    sent = target;
    rows.push(`| ${maxKeys} | ${target} | ${before} | ${rssMiB(pid)} |`);
  }
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.on('close', r));
  rmSync(config, { force: true });
  rows.push(`|  | (${Math.round((CLIENTS - 2000) / seconds)} req/s) |  |  |`);
  return rows;
}

async function main(): Promise<void> {
  const lines = ['| maxKeys | distinct clients | RSS before (MiB) | RSS after (MiB) |', '|---|---|---|---|'];
  for (const maxKeys of [MAX_KEYS, CLIENTS * 2]) {
    lines.push(...(await run(maxKeys)));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
