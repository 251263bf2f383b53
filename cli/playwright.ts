/** Where Playwright and the suite's config are, and how the CLI starts Playwright's own CLI. */

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { codeModule } from '../shared/paths.ts';
import { loaderEnv } from '../shared/typescript-loader.ts';
import { removeHostFoldersOf } from '../specs/run/host-socket.ts';
import { stopWatchdog } from './stop-watchdog.ts';

const require = createRequire(import.meta.url);

/**
 * Playwright's CLI as this package resolves its peer `@playwright/test` (the project's own Playwright,
 * docs/package.md "Playwright versions"), not whatever `npx playwright` finds first.
 */
export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
export const SUITE_CONFIG = codeModule('playwright.config');
export const REPORTER = codeModule('specs/report/reporter');

/**
 * Signals sent to this process alone (a process manager, `kill <pid>`, a closed terminal), passed on to
 * Playwright: it is this process's work, and must not outlive it. SIGINT is not among them: Ctrl-C already
 * reaches Playwright through the terminal's process group, and a second SIGINT would make it stop at once,
 * without its reports.
 */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];

/**
 * How Playwright's output reaches this process's: a terminal is handed over as it is (Playwright's live list
 * and colours are for it); a pipe or a file goes through this process (issue #40). A reader that goes away
 * (`gatecheck … | head -1`) then closes this process's output, where shared/closed-pipe.ts drops the rest
 * quietly, while Playwright, its set-up and its reporters write into a pipe that is read to the end: none of
 * them meets EPIPE, and the run finishes and writes its reports.
 */
function outputOf(stream: NodeJS.WriteStream): 'inherit' | 'pipe' {
  return stream.isTTY ? 'inherit' : 'pipe';
}

/**
 * Playwright's input: none for a run, so its HTML reporter neither opens a browser nor prints its own
 * `npx playwright show-report` hint — which names no folder (the report is in <report-dir>/playwright-html)
 * and carries colour codes even into a file (issue #40); the CLI prints the right one (cli/run.ts). The
 * terminal for the modes that read it (--ui, --debug).
 */
function inputOf(args: readonly string[]): 'inherit' | 'ignore' {
  return args.some((a) => a === '--ui' || a === '--debug' || a.startsWith('--ui=')) ? 'inherit' : 'ignore';
}

function relay(from: NodeJS.ReadableStream | null, to: NodeJS.WriteStream): void {
  from?.on('data', (chunk: Buffer) => {
    if (!to.destroyed && to.writable) to.write(chunk);
  });
}

/**
 * An outer Playwright worker's identity, inherited when the CLI runs inside someone's test: the Playwright it
 * starts is a runner of its own, and with these set its config would take itself for a worker
 * (specs/setup/run-host.ts) and never set the run up.
 */
const OUTER_WORKER = ['TEST_WORKER_INDEX', 'TEST_PARALLEL_INDEX'] as const;

export function runnerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of OUTER_WORKER) delete out[name];
  return out;
}

/**
 * Runs `playwright <args>` with the terminal attached (its progress output is the CLI's); resolves its exit
 * code. Stopped by a forwarded signal, this process ends the way Playwright did, by that signal, once
 * Playwright has exited.
 */
export function runPlaywright(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...args], {
      stdio: [inputOf(args), outputOf(process.stdout), outputOf(process.stderr)],
      env: runnerEnv({ ...env, ...loaderEnv(args, env) }),
    });
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    let received: NodeJS.Signals | undefined;
    const forward = (signal: NodeJS.Signals) => {
      received ??= signal;
      child.kill(signal);
    };
    // Ctrl-C reaches the child through the terminal's process group; wait for it to write its reports, but
    // not for ever (cli/stop-watchdog.ts).
    const watchdog = stopWatchdog(child);
    const interrupted = () => watchdog.arm();
    process.on('SIGINT', interrupted);
    for (const signal of FORWARDED) process.on(signal, forward);
    const detach = () => {
      watchdog.disarm();
      process.off('SIGINT', interrupted);
      for (const signal of FORWARDED) process.off(signal, forward);
    };
    child.on('error', (error) => {
      detach();
      reject(error);
    });
    child.on('close', (code, signal) => {
      detach();
      // Ended by a signal, Playwright's runner may not have removed its host's folder (specs/setup/run-host.ts).
      if (signal !== null && child.pid !== undefined) removeHostFoldersOf(child.pid);
      if (received !== undefined) {
        // No handler left: the default action of the signal ends this process as it ended Playwright.
        process.kill(process.pid, received);
        return;
      }
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
