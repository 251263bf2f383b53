import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * The project's own tests (the mock, the suite's machinery, the CLI, the mutation score).
 * The conformance suite itself — the product — is configured in ../playwright.config.ts.
 */
/**
 * Tests that mostly wait: a paced run against a rate limit spends most of its wall time waiting for the limit's
 * window (`npx tsx bench/self-test-cpu.ts`: real-limiters 172 CPU-s in 620 s of test time; one nestjs-like row
 * 25 CPU-s in 104 s). They run in a pool of their own beside the CPU-bound tests, so that their waiting does not
 * hold a worker the CPU could use: started first in one pool of three workers, they held all three for the
 * run's first minutes with the two cores half idle.
 */
const WAITING = [
  'suite/real-limiters.test.ts',
  'suite/rate-aware.test.ts',
  'suite/real-nginx.test.ts',
  // Runs that wait out Playwright's timeouts (≈ 20 s, 4 CPU-s), the CLI's stop watchdog (≈ 20 s, 3 CPU-s) and a
  // target's Retry-After (≈ 5 s): among the CPU-bound tests, each held one of their two workers while the
  // cores idled.
  'run/test-clock.test.ts',
  'cli/ctrl-c.test.ts',
  'run/refresh-after-wait.test.ts',
];
/**
 * The longest CPU-bound tests, started first: one long test each (the mutation score, Playwright versions).
 * Started last, as their folders' names would have them, they ran alone at the end with the cores half idle.
 * Playwright queues a phase's test groups project by project, in this order.
 */
const LONGEST = ['mutation/score.test.ts', 'package/playwright-versions.test.ts'];

/**
 * Two CPU-bound tests at a time beside the three waiting ones (docs/performance.md "#36, seventh pass"). On this
 * 2-core machine (`CI=true npx tsx bench/self-test-cpu.ts`, one session): one pool of three workers, the waiting
 * tests first, 898 s; two CPU + three waiting 849 s, all passed; three CPU + three waiting 805 s, but
 * at load 11 the waiting tests' 1 s windows saw the mock's stalls, and a slowapi row learned `address` where
 * the target counts per route. Most CPU-bound tests start a child run that uses both cores by itself.
 */
const CPU_WORKERS = process.env.CI ? 2 : Math.max(2, Math.floor(availableParallelism() / 2));
const WAITING_WORKERS = 3;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: CPU_WORKERS + WAITING_WORKERS,
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: '../reports/self-test.junit.xml' }]] : 'list',
  outputDir: '../test-results/self',
  // The suite compiled once for the child runs (setup/compiled-suite.ts): no TypeScript loader in their processes.
  globalSetup: './setup/compile-suite.ts',
  projects: [
    { name: 'waiting', testMatch: WAITING, workers: WAITING_WORKERS },
    // No limit of its own: queued before `self`, its tests take the slots the waiting pool leaves (two at the
    // start), and `self` the ones they free, up to its own limit.
    { name: 'longest', testMatch: LONGEST },
    { name: 'self', testIgnore: [...WAITING, ...LONGEST], workers: CPU_WORKERS },
  ],
});
