/**
 * Where the self-test run's CPU goes (issue #36: `npm test` under 7 min on a 2-core machine is a question of
 * CPU seconds): runs `playwright test -c tests/playwright.config.ts` with the CPU reporter
 * (bench/self-test-cpu/reporter.ts) and prints CPU and wall seconds per test file, the total, and how many
 * Playwright worker processes the run started, nested runs' included. Linux only (/proc).
 *
 *   npx tsx bench/self-test-cpu.ts [--top <n>] [-- <playwright test arguments>]
 *
 * Takes as long as the self-tests (≈ 15 min on 2 cores); run it with nothing else on the machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CpuRow } from './self-test-cpu/reporter.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(`self-test-cpu/${file}`, import.meta.url));

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const top = Number(values.top);
if (!Number.isInteger(top) || top < 1) {
  console.error('--top: expected a whole number of files to list, at least 1');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'gatecheck-self-cpu-'));
const mapDir = join(work, 'workers');
const rowsPath = join(work, 'rows.json');
const started = Date.now();
let status: number | null;
let rows: CpuRow[];
let workers: number;
try {
  mkdirSync(mapDir);
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      'tests/playwright.config.ts',
      `--reporter=dot,${here('reporter.ts')}`,
      ...positionals,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${here('worker-index.cjs')}`.trim(),
        GATECHECK_CPU_MAP_DIR: mapDir,
        GATECHECK_CPU_ROWS: rowsPath,
      },
    },
  );
  status = run.status;
  // No rows when the run stopped before its reporter's end (a bad argument): said, and nothing left behind.
  rows = existsSync(rowsPath) ? (JSON.parse(readFileSync(rowsPath, 'utf8')) as CpuRow[]) : [];
  workers = readdirSync(mapDir).length;
} finally {
  rmSync(work, { recursive: true, force: true });
}
const wall = (Date.now() - started) / 1000;

const byFile = new Map<string, { cpu: number; wall: number; tests: number }>();
for (const r of rows) {
  const f = byFile.get(r.file) ?? { cpu: 0, wall: 0, tests: 0 };
  byFile.set(r.file, { cpu: f.cpu + r.cpuSeconds, wall: f.wall + r.wallSeconds, tests: f.tests + 1 });
}
const total = rows.reduce((s, r) => s + r.cpuSeconds, 0);
console.log(
  `\nexit ${status} · wall ${wall.toFixed(0)} s · CPU of the tests ${total.toFixed(0)} s (${rows.length} tests) · Playwright workers started ${workers}`,
);
console.log('\n| CPU s | share | wall s (sum) | tests | file |\n| ---: | ---: | ---: | ---: | --- |');
for (const [file, f] of [...byFile].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, top)) {
  console.log(
    `| ${f.cpu.toFixed(1)} | ${((100 * f.cpu) / total).toFixed(1)} % | ${f.wall.toFixed(1)} | ${f.tests} | ${file} |`,
  );
}
process.exit(status ?? 1);
