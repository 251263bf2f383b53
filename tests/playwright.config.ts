import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

/**
 * The project's own tests (the mock, the suite's machinery, the CLI, the mutation score).
 * The conformance suite itself — the product — is configured in ../playwright.config.ts.
 */
/**
 * The tests that take longest, started first: most of their time is spent waiting on a rate limit's window (the
 * real limiters, nginx, rate-aware runs) or is one long test (the mutation score, Playwright versions). Started
 * last, as their folders' names would have them, they ran alone at the end with the cores half idle; started
 * first they wait while the short tests use the cores. Playwright queues a phase's test groups project by
 * project, in this order.
 */
const LONGEST = [
  'suite/real-limiters.test.ts',
  'suite/rate-aware.test.ts',
  'mutation/score.test.ts',
  'suite/real-nginx.test.ts',
  'package/playwright-versions.test.ts',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // More workers than Playwright's default (half the cores, one on a 2-core machine): many of these tests wait
  // (on a rate limit's window, a child run, an install). On this 2-core machine, `CI=true … --workers=3` took
  // 884 s of wall and 1,528 CPU-s with the longest tests first, against 990 s with them last; two workers
  // took ≈ 1,060 s.
  workers: process.env.CI ? 3 : Math.max(3, Math.floor(availableParallelism() / 2)),
  timeout: 60_000,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: '../reports/self-test.junit.xml' }]] : 'list',
  outputDir: '../test-results/self',
  projects: [
    { name: 'longest', testMatch: LONGEST },
    { name: 'self', testIgnore: LONGEST },
  ],
});
