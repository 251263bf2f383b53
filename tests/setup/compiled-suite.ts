/**
 * The suite as the self-tests run it in a child process: the working tree compiled to JavaScript
 * (scripts/build-package.ts) into a folder of its own, laid out as the installed package is (bin/, dist/,
 * fixtures/, package.json; node_modules/ is the repository's, linked). Run from there, Playwright needs no
 * TypeScript loader in the runner or its workers: on Node 20 that loader is a thread every import crosses,
 * ≈ 1 CPU-s of each child run (docs/performance.md, "#36, twelfth pass"). Compiled once per run of the
 * self-tests by their global setup (./compile-suite.ts), which hands the folder to the workers in
 * COMPILED_SUITE_ENV; the same sources, so every test still checks the working tree. The TypeScript sources
 * themselves run in `npm run test:conformance`, `npm start` and the tests that import them.
 */
import { join } from 'node:path';
import type { CodeUnder } from '../../shared/paths.ts';

export const COMPILED_SUITE_ENV = 'GATECHECK_SELF_TEST_COMPILED';

export interface CompiledSuite {
  /** The package-shaped folder. */
  readonly root: string;
  /** Its dist/: the compiled code, laid out as the sources are (`specs/…`, `tests/mutation/…`, `scripts/…`). */
  readonly code: string;
  /** dist/playwright.config.js */
  readonly config: string;
  /** dist/specs/report/reporter.js: the conformance reporter. */
  readonly reporter: string;
  /** bin/gatecheck.js: the CLI, compiled (bin/entry.js takes dist/ where no sources are). */
  readonly bin: string;
  /** The environment a child Playwright of it runs with: no TypeScript loader. */
  readonly env: Readonly<Record<string, string>>;
}

export function compiledSuite(): CompiledSuite {
  const root = process.env[COMPILED_SUITE_ENV];
  if (!root) {
    throw new Error(
      `${COMPILED_SUITE_ENV} is not set: run the self-tests with -c tests/playwright.config.ts, whose global setup compiles the suite`,
    );
  }
  return {
    root,
    code: join(root, 'dist'),
    config: join(root, 'dist', 'playwright.config.js'),
    reporter: join(root, 'dist', 'specs', 'report', 'reporter.js'),
    bin: join(root, 'bin', 'gatecheck.js'),
    env: { PW_DISABLE_TS_ESM: '1' },
  };
}

/** The compiled code and the environment it runs with, as the mutation and corpus runs take them. */
export function compiledCode(): CodeUnder {
  const suite = compiledSuite();
  return { root: suite.code, env: suite.env };
}
