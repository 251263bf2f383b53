/**
 * The CLI validates the profile itself: a mark of an already validated profile (specs/profile/load.ts
 * PROFILE_CHECKED_ENV) inherited from the caller's environment is not trusted, so a bad profile is still exit 2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { resolveTarget, targetEnv } from '../../cli/target.ts';
import { PROFILE_CHECKED_ENV, profileDigest } from '../../specs/profile/load.ts';

test('an inherited mark of a validated profile is dropped: the CLI validates the profile again', async () => {
  expect(targetEnv({}, { [PROFILE_CHECKED_ENV]: 'x', OTHER: '1' })).toEqual({ OTHER: '1' });
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-cli-target-'));
  try {
    const text = JSON.stringify({ name: 'not a profile' });
    const profile = join(dir, 'p.json');
    await writeFile(profile, text);
    expect(() => resolveTarget({ profile }, { [PROFILE_CHECKED_ENV]: profileDigest(text) })).toThrow(
      /^profile: \/endpoints is required$/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
