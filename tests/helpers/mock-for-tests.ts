/**
 * One mock for the tests of a file (or of the `describe` it is called in): started in-process on a free port
 * before the first test, closed after the last. The object it returns reads the running mock's fields, so a
 * file writes `const mock = mockForTests()` and uses `mock.url` in its tests as before.
 */
import { test } from '@playwright/test';
import { type RunningMock, type StartOptions, startMock } from '../../mock/server.ts';

export function mockForTests(options: Omit<StartOptions, 'port'> = {}): RunningMock {
  let running: RunningMock | undefined;
  test.beforeAll(async () => {
    running = await startMock({ port: 0, ...options });
  });
  test.afterAll(async () => {
    await running?.close();
  });
  const current = (): RunningMock => {
    if (running === undefined)
      throw new Error('the mock starts before the first test: read it inside a test');
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get config() {
      return current().config;
    },
    get control() {
      return current().control;
    },
    get caPath() {
      return current().caPath;
    },
    get standIn() {
      return current().standIn;
    },
    close: () => current().close(),
  };
}
