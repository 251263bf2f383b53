/**
 * A Playwright reporter that says how much CPU each test of the self-test run cost (bench/self-test-cpu.ts):
 * the CPU time of the worker running it — the worker's own and that of every child process it waited for
 * (utime + stime + cutime + cstime of /proc/<pid>/stat, Linux only) — from the test's start to its end. A
 * child run's runner, its workers and a mock in a child process are counted when they exit; a process killed
 * after the test ended is not. Rows go to GATECHECK_CPU_ROWS as JSON.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on every Linux the machine runs). */
const USER_HZ = 100;

export interface CpuRow {
  readonly file: string;
  readonly title: string;
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
}

/** CPU seconds of `pid` and its waited-for children, or undefined when the process is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: state is the 3rd field of the file, utime the 14th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / USER_HZ;
  } catch {
    return undefined;
  }
}

export default class CpuReporter implements Reporter {
  private readonly mapDir = process.env.GATECHECK_CPU_MAP_DIR ?? '';
  private readonly open = new Map<string, { pid?: number; cpu?: number; at: number }>();
  private readonly rows: CpuRow[] = [];

  /** The pid of this run's worker `index` (its own, not a nested run's: its parent is this runner). */
  private workerPid(index: number): number | undefined {
    for (const name of readdirSync(this.mapDir)) {
      const [i, parent] = readFileSync(join(this.mapDir, name), 'utf8').split(' ').map(Number);
      if (i === index && parent === process.pid) return Number(name);
    }
    return undefined;
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    const pid = this.workerPid(result.workerIndex);
    this.open.set(`${test.id}:${result.retry}`, {
      pid,
      cpu: pid === undefined ? undefined : cpuSeconds(pid),
      at: Date.now(),
    });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const begun = this.open.get(`${test.id}:${result.retry}`);
    if (begun === undefined) return;
    // A worker's first test may begin before the worker has written its pid: then from the worker's start.
    const pid = begun.pid ?? this.workerPid(result.workerIndex);
    const end = pid === undefined ? undefined : cpuSeconds(pid);
    this.rows.push({
      file: test.location.file.split('/tests/').at(-1) ?? test.location.file,
      title: test.title,
      cpuSeconds: end === undefined ? 0 : end - (begun.cpu ?? 0),
      wallSeconds: (Date.now() - begun.at) / 1000,
    });
  }

  onEnd(): void {
    writeFileSync(process.env.GATECHECK_CPU_ROWS ?? 'self-test-cpu.json', JSON.stringify(this.rows));
  }

  printsToStdio(): boolean {
    return false;
  }
}
