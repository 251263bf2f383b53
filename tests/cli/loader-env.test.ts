/**
 * When the CLI and the suite's config turn off Playwright's TypeScript loader (shared/typescript-loader.ts):
 * only when the running code is compiled, the user has not set the variable, and no argument names a
 * TypeScript module. The installed package's run itself: tests/package/compiled-loader.test.ts.
 */
import { expect, test } from '@playwright/test';
import { loaderEnv } from '../../shared/typescript-loader.ts';

const RUN = ['test', '--config', '/x/dist/playwright.config.js', '--output', 'out/test-results'];

test('compiled, no TypeScript named: PW_DISABLE_TS_ESM=1', () => {
  expect(loaderEnv(RUN, {}, '.js')).toEqual({ PW_DISABLE_TS_ESM: '1' });
  expect(loaderEnv([...RUN, '--reporter=list,./mine.js'], {}, '.js')).toEqual({ PW_DISABLE_TS_ESM: '1' });
});

test('from the sources (a clone): the loader stays, the suite is TypeScript', () => {
  expect(loaderEnv(RUN, {}, '.ts')).toEqual({});
});

test('a TypeScript module among the arguments (a reporter of the user’s): the loader stays', () => {
  for (const args of [
    [...RUN, '--reporter=list,./mine.ts'],
    [...RUN, '--reporter', './reporters/mine.mts'],
    [...RUN, '--reporter=./mine.cts'],
    [...RUN, '--reporter', 'mine.tsx,dot'],
  ])
    expect(loaderEnv(args, {}, '.js'), args.join(' ')).toEqual({});
});

test('set by the user, either way: left as it is', () => {
  expect(loaderEnv(RUN, { PW_DISABLE_TS_ESM: '' }, '.js')).toEqual({});
  expect(loaderEnv(RUN, { PW_DISABLE_TS_ESM: '1' }, '.js')).toEqual({});
});
