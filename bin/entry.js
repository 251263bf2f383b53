// How both `bin` files start their program. Installed from the registry, the package holds the compiled
// JavaScript in dist/ (docs/package.md); in a clone, where the TypeScript sources are, tsx's loader is
// registered first and the source runs as it is. Either way the program runs in this process: the bin is
// the process, and the signals sent to it reach the program's own handlers.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { refuseOlderNode } from './node-version.js';

/** How often a bin started by npm checks that its launcher is still there. */
const LAUNCHER_CHECK_MS = 250;

/**
 * npm (`npx`, `npm exec`, `npm run`) starts a bin through a shell, `sh -c '<bin> <args>'`, and forwards
 * SIGINT and SIGTERM to that shell only. Where the shell forks the bin instead of replacing itself with it
 * (Debian's and Ubuntu's dash), a SIGTERM to npm — a CI script's `kill $!` — ends npm and the shell and
 * leaves the bin running, its port taken. So a bin npm started (npm sets `npm_lifecycle_event` for it) stops
 * as on SIGTERM when its parent is gone. (A SIGINT sent to npm alone never gets past dash, which waits for
 * its command to end first; Ctrl-C reaches every process of the terminal's job, the bin included.)
 */
function stopWithLauncher() {
  if (process.env.npm_lifecycle_event === undefined) return;
  const launcher = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === launcher) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, LAUNCHER_CHECK_MS);
  timer.unref();
}

/** Runs `<source>.ts` from a clone, else the compiled `dist/<source>.js`; `source` is relative to the root. */
export async function runEntry(source) {
  refuseOlderNode(basename(process.argv[1] ?? 'gatecheck').replace(/\.js$/, ''));
  stopWithLauncher();
  const typescript = new URL(`../${source}.ts`, import.meta.url);
  if (existsSync(typescript)) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(typescript.href);
  } else {
    await import(new URL(`../dist/${source}.js`, import.meta.url).href);
  }
}
