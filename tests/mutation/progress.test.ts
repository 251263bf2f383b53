/**
 * The mutation run's progress lines (harness/progress.ts): one per target, when its last test ends, with
 * how many targets are done and left and how many rules the target failed.
 */
import { expect, test } from '@playwright/test';
import { MutationProgress } from './harness/progress.ts';

test('a target is reported once, when its last test ends, with its failed rules counted once each', () => {
  const progress = new MutationProgress(
    new Map([
      ['conformant', 2],
      ['alg-none', 3],
      ['empty', 0],
    ]),
  );
  expect(progress.start(2)).toBe('mutation: 2 targets (each defect and the conformant mock), 2 workers');
  expect(progress.testEnded('alg-none', 'jwt.alg.none')).toBeUndefined();
  expect(progress.testEnded('conformant', undefined)).toBeUndefined();
  expect(progress.testEnded('alg-none', 'jwt.alg.none')).toBeUndefined();
  expect(progress.testEnded('alg-none', 'jwt.attack.alg-none')).toBe(
    'mutation: 1/2 alg-none — 2 rules failed, 1 left',
  );
  expect(progress.testEnded('conformant', undefined)).toBe(
    'mutation: 2/2 conformant — 0 rules failed, 0 left',
  );
  // A late or unknown event prints nothing.
  expect(progress.testEnded('conformant', undefined)).toBeUndefined();
  expect(progress.testEnded('no-such-target', 'x')).toBeUndefined();
});
