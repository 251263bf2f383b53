/**
 * The boundary variants of the `auth.boundary.*` rules (specs/kit/boundaries.ts): each differs from the valid
 * secret, exactly as its rule says, and a changed character stays different after base64url decoding — the
 * last character of a signature included (RFC 4648 §5: its low bits may be padding a decoder drops).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  caseVariants,
  changedAt,
  emptyVariants,
  oneCharVariants,
  prefixVariants,
  suffixVariants,
  swappedCase,
  validSecrets,
  whitespaceVariants,
} from '../../specs/kit/boundaries.ts';
import { Kit } from '../../specs/kit/kit.ts';
import type { Profile } from '../../specs/profile/types.ts';
import type { Target } from '../../specs/wire/http.ts';

const PROFILE = JSON.parse(
  readFileSync(new URL('../../fixtures/mock.profile.json', import.meta.url), 'utf8'),
) as Profile;
// No request is sent here: the kit only answers "which credential, for which request".
const kit = new Kit(PROFILE, undefined as unknown as Target, undefined);

test('a changed character decodes to other bytes at every place of a base64url signature, the last one included', () => {
  for (const size of [32, 64, 256, 257, 258]) {
    const signature = randomBytes(size).toString('base64url');
    for (const at of [0, Math.floor(signature.length / 2), signature.length - 1]) {
      const changed = changedAt(signature, at);
      expect(changed.length).toBe(signature.length);
      expect(
        Buffer.from(changed, 'base64url').equals(Buffer.from(signature, 'base64url')),
        `${size} bytes, at ${at}`,
      ).toBe(false);
    }
  }
  expect(changedAt('päss', 1)).toBe('pAss');
});

test('swappedCase inverts letters of any script and leaves the rest', () => {
  expect(swappedCase('gck_Ab9-Zz')).toBe('GCK_aB9-zZ');
  expect(swappedCase('s3cret:päss')).toBe('S3CRET:PÄSS');
});

test('one valid secret per scheme the bundled profile declares, with a request that accepts it', async () => {
  const secrets = await validSecrets(kit);
  expect(secrets.map((s) => [s.scheme, s.identity, s.probe.field])).toEqual([
    ['bearer', 'admin', 'endpoints.protected'],
    ['basic', 'admin', 'endpoints.protected'],
    ['apikey', 'admin', 'endpoints.collection'],
  ]);
});

test('every variant differs from the valid credential, changes it as its label says, and its label holds no secret', async () => {
  for (const valid of await validSecrets(kit)) {
    const original = valid.build(valid.secret);
    const all = [
      ...emptyVariants(valid),
      ...prefixVariants(valid),
      ...suffixVariants(valid),
      ...oneCharVariants(valid),
      ...caseVariants(valid),
      ...whitespaceVariants(valid),
    ];
    for (const variant of all) {
      expect(variant.authorization, variant.label).not.toBe(original);
      expect(variant.label).not.toContain(valid.secret.slice(0, 6));
    }
    expect(prefixVariants(valid).map((v) => v.label)).toEqual([
      `its first ${valid.secret.length - 1} of ${valid.secret.length} characters`,
      `its first ${Math.ceil(valid.secret.length / 2)} of ${valid.secret.length} characters`,
      `its first 1 of ${valid.secret.length} characters`,
    ]);
    expect(oneCharVariants(valid)).toHaveLength(3);
  }
});
