/**
 * The observers' verdict project (specs/observe/) judges stored observations in milliseconds: it runs its
 * file in one worker process, so the run does not start one per core for it (docs/performance.md
 * "The default run").
 */
import { expect, test } from '@playwright/test';
import config from '../../playwright.config.ts';

test('the observers project is not fully parallel: its one verdict file runs in one worker', () => {
  const observers = config.projects?.find((p) => p.name === 'observers');
  expect(observers?.fullyParallel).toBe(false);
  expect(config.projects?.find((p) => p.name === 'conformance')?.teardown).toBe('observers');
});
