/**
 * Issue #42's red-team cases against `gatecheck verify` (red-team-cases.ts): a statement that says two things
 * at once, a cheap denial of service, a key read loosely. Each seen failing on the code before the fix.
 */
import { expect, test } from '@playwright/test';
import { RED_TEAM } from './red-team-cases.ts';

for (const c of RED_TEAM) {
  test(`${c.name} → ${c.expected} (exit ${c.expectedCode})`, async () => {
    const ran = await c.run();
    expect(ran.code, `${ran.out}${ran.err}`).toBe(c.expectedCode);
    expect(c.check?.(ran)).toBeUndefined();
  });
}
