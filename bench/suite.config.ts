/**
 * The conformance suite's own configuration (../playwright.config.ts) — same tests, workers, reporters —
 * plus Playwright's JSON reporter, whose per-test start times and durations give the benchmark its phase
 * breakdown. Paths are made absolute because Playwright resolves them against this file's folder.
 */

import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import base from '../playwright.config.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = (path: string): string => (isAbsolute(path) ? path : resolve(ROOT, path));

const reporters = (Array.isArray(base.reporter) ? base.reporter : []) as ReporterDescription[];

export default defineConfig({
  ...base,
  testDir: at(base.testDir ?? 'specs'),
  ...(typeof base.globalSetup === 'string' ? { globalSetup: at(base.globalSetup) } : {}),
  outputDir: at(base.outputDir ?? 'test-results/conformance'),
  reporter: [
    ...reporters.map(
      ([name, options]): ReporterDescription => [name.startsWith('.') ? at(name) : name, options],
    ),
    ['json', { outputFile: process.env.GATECHECK_BENCH_JSON ?? at('test-results/bench-suite.json') }],
  ],
});
