/**
 * The project grep of a defect's run (harness/manifest.ts rulesGrep): it keeps the checks tagged with one of
 * the defect's rules and no other, though rule ids share prefixes (`jwt.alg.none`, `jwt.alg.none-case`).
 */
import { expect, test } from '@playwright/test';
import { rulesGrep } from './harness/manifest.ts';

test('a defect run keeps exactly the checks of its rules; without rules, every check', () => {
  expect(rulesGrep(undefined)).toBeUndefined();
  const grep = rulesGrep(['jwt.alg.none', 'auth.401.missing']) as RegExp;
  const title = (tags: string) => `protected path with an unsigned token → 401 ${tags}`;
  expect(grep.test(title('@must @rule:jwt.alg.none'))).toBe(true);
  expect(grep.test(title('@rule:auth.401.missing @should'))).toBe(true);
  expect(grep.test(title('@rule:jwt.alg.none-case'))).toBe(false);
  expect(grep.test(title('@rule:jwt.alg.none.header'))).toBe(false);
  expect(grep.test(title('@rule:jwt.alg'))).toBe(false);
  // A dot in an id is a dot, not any character.
  expect(grep.test(title('@rule:jwtXalg.none'))).toBe(false);
});
