// Loaded into every Node process of a self-test run (NODE_OPTIONS=--require, bench/self-test-cpu.ts): a
// Playwright worker sets TEST_WORKER_INDEX once it starts, and this writes `<index> <parent pid>` under the
// process's pid into GATECHECK_CPU_MAP_DIR, so the reporter finds each worker's process. Nested runs' workers
// write too: their count is the number of Playwright workers the self-tests started.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.GATECHECK_CPU_MAP_DIR;
if (dir) {
  const timer = setInterval(() => {
    const index = process.env.TEST_WORKER_INDEX;
    if (index === undefined) return;
    clearInterval(timer);
    try {
      writeFileSync(join(dir, String(process.pid)), `${index} ${process.ppid}`);
    } catch {}
  }, 50);
  timer.unref();
}
