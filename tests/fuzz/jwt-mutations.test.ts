/**
 * The JWT mutation arbitraries (specs/fuzz/jwt/mutations/) against jose, verifying as the mock does (its
 * JWKS, RS256/ES256 allow-list, issuer, audience, exp and sub required): the base token is accepted, every
 * MUST-class mutation is refused and differs from the base, and the SHOULD/INFO classes behave as their
 * rule levels say.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { createJwtKit, isKitUnavailable, type JwtKit } from '../../specs/fuzz/jwt/kit.ts';
import { isUnavailable, type JwtMutation, type MutationSource } from '../../specs/fuzz/jwt/mutation.ts';
import { algNoneMutation } from '../../specs/fuzz/jwt/mutations/algNone.ts';
import { anyMutation } from '../../specs/fuzz/jwt/mutations/anyMutation.ts';
import { bitFlipMutation } from '../../specs/fuzz/jwt/mutations/bitFlip.ts';
import { ecdsaZeroSignatureMutation } from '../../specs/fuzz/jwt/mutations/ecdsaZeroSignature.ts';
import { embeddedKeyMutation } from '../../specs/fuzz/jwt/mutations/embeddedKey.ts';
import { iatFutureMutation } from '../../specs/fuzz/jwt/mutations/iatFuture.ts';
import { keyConfusionMutation } from '../../specs/fuzz/jwt/mutations/keyConfusion.ts';
import { kidInjectionMutation } from '../../specs/fuzz/jwt/mutations/kidInjection.ts';
import { malformedStructureMutation } from '../../specs/fuzz/jwt/mutations/malformedStructure.ts';
import { missingIssuerAudienceMutation } from '../../specs/fuzz/jwt/mutations/missingIssuerAudience.ts';
import { payloadTamperMutation } from '../../specs/fuzz/jwt/mutations/payloadTamper.ts';
import { signatureMutation } from '../../specs/fuzz/jwt/mutations/signatureDamage.ts';
import { timeClaimsMutation } from '../../specs/fuzz/jwt/mutations/timeClaims.ts';
import { unknownCritMutation } from '../../specs/fuzz/jwt/mutations/unknownCrit.ts';
import { wrongIssuerAudienceMutation } from '../../specs/fuzz/jwt/mutations/wrongIssuerAudience.ts';
import type { Profile } from '../../specs/profile/types.ts';

const profile = JSON.parse(
  readFileSync(new URL('../../fixtures/mock.profile.json', import.meta.url), 'utf8'),
) as Profile;
const jwks = createLocalJWKSet(
  JSON.parse(
    readFileSync(new URL('../../fixtures/keys/jwks.json', import.meta.url), 'utf8'),
  ) as JSONWebKeySet,
);
const options = {
  algorithms: ['RS256', 'ES256'],
  issuer: profile.jwt?.issuer,
  audience: profile.jwt?.audience,
  clockTolerance: profile.jwt?.leewaySeconds ?? 30,
  requiredClaims: ['exp', 'sub'],
};

function kitOf(p: Profile): JwtKit {
  const kit = createJwtKit(p);
  if (isKitUnavailable(kit)) throw new Error(kit.unavailable);
  return kit;
}

async function accepted(token: string): Promise<boolean> {
  try {
    await jwtVerify(token, jwks, options);
    return true;
  } catch {
    return false;
  }
}

function arbitrary(source: MutationSource): fc.Arbitrary<JwtMutation> {
  if (isUnavailable(source)) throw new Error(source.unavailable);
  return source;
}

const MUST_CLASSES: [string, (kit: JwtKit) => MutationSource][] = [
  ['alg-none', (kit) => algNoneMutation(kit)],
  ['signature', (kit) => signatureMutation(kit)],
  ['bit-flip', (kit) => bitFlipMutation(kit)],
  ['payload-tamper', (kit) => payloadTamperMutation(kit)],
  ['key-confusion', (kit) => keyConfusionMutation(kit)],
  ['ecdsa-zero-signature', (kit) => ecdsaZeroSignatureMutation(kit)],
  ['time-claims', (kit) => timeClaimsMutation(kit)],
  ['wrong-iss-aud', (kit) => wrongIssuerAudienceMutation(kit)],
  ['crit-unknown', (kit) => unknownCritMutation(kit)],
  ['kid-injection', (kit) => kidInjectionMutation(kit)],
  ['embedded-key', (kit) => embeddedKeyMutation(kit)],
  ['structure', (kit) => malformedStructureMutation(kit)],
];

test('the kit mints a token jose accepts with the mock’s settings, signed by node:crypto', async () => {
  const kit = kitOf(profile);
  expect(kit.minted).toBe(true);
  expect(await accepted(kit.token)).toBe(true);
});

for (const [attack, build] of MUST_CLASSES) {
  test(`${attack}: every mutation differs from the valid token and is refused`, async () => {
    const kit = kitOf(profile);
    const mutations = fc.sample(arbitrary(build(kit)), { seed: 7, numRuns: 60 });
    const same = mutations.filter((m) => m.token === kit.token);
    expect(same).toEqual([]);
    const taken: string[] = [];
    for (const m of mutations) if (await accepted(m.token)) taken.push(m.variant);
    expect(taken).toEqual([]);
    expect(new Set(mutations.map((m) => m.attack))).toEqual(new Set([attack]));
  });
}

test('escalations raise the claims to the admin’s and go to the admin path', () => {
  const kit = kitOf(profile);
  for (const m of fc.sample(anyMutation(kit, true), { seed: 3, numRuns: 100 })) {
    expect(m.escalated).toBe(true);
  }
});

test('missing iss/aud: refused by a verifier that requires them (the SHOULD rule’s accept branch)', async () => {
  const kit = kitOf(profile);
  for (const m of fc.sample(arbitrary(missingIssuerAudienceMutation(kit)), { seed: 5, numRuns: 10 })) {
    expect(await accepted(m.token)).toBe(false);
    // …and accepted by one that checks neither (the reject branch: the rule would warn).
    const lax = await jwtVerify(m.token, jwks, { algorithms: ['RS256'] }).then(
      () => true,
      () => false,
    );
    expect(lax).toBe(true);
  }
});

test('iat in the future: jose accepts such tokens, which is why jwt.attack.iat-future is INFO', async () => {
  const kit = kitOf(profile);
  const mutations = fc.sample(arbitrary(iatFutureMutation(kit)), { seed: 5, numRuns: 5 });
  for (const m of mutations) expect(await accepted(m.token)).toBe(true);
});

test('time mutations count from when each is made, not from when the kit was: after a plan ran for minutes, its "nbf a minute from now" tokens are still refused', async () => {
  let clock = Date.now();
  const kit = createJwtKit(profile, () => clock);
  if (isKitUnavailable(kit)) throw new Error(kit.unavailable);
  // Ten minutes into a paced plan.
  clock += 600_000;
  const mutations = fc.sample(arbitrary(timeClaimsMutation(kit)), { seed: 3, numRuns: 30 });
  for (const m of mutations) {
    const claims = JSON.parse(Buffer.from(m.token.split('.')[1] ?? '', 'base64url').toString()) as {
      nbf?: number;
      exp: number;
    };
    const now = Math.floor(clock / 1000);
    if (claims.nbf !== undefined)
      expect(claims.nbf - now, m.variant).toBeGreaterThanOrEqual(kit.leewaySeconds + 60);
    else expect(now - claims.exp, m.variant).toBeGreaterThanOrEqual(kit.leewaySeconds + 60);
  }
});

test('without signing material the kit mutates the profile’s bearer token, and re-signing classes say why they cannot run', () => {
  const { jwt: _jwt, ...rest } = profile;
  const kit = kitOf({ ...rest, identities: profile.identities } as Profile);
  expect(kit.minted).toBe(false);
  expect(kit.token).toBe(profile.identities.user?.bearer);
  const time = timeClaimsMutation(kit);
  expect(isUnavailable(time) && time.unavailable).toMatch(/^profile lacks jwt signing material/);
  expect(isUnavailable(keyConfusionMutation(kit))).toBe(true);
  expect(isUnavailable(algNoneMutation(kit))).toBe(false);
});

test('an opaque bearer token cannot be mutated, and the kit says so', () => {
  const kit = createJwtKit({
    name: 'opaque',
    endpoints: {},
    identities: { user: { bearer: 'opaque-token-123' } },
  });
  expect(isKitUnavailable(kit) && kit.unavailable).toMatch(/not a JWS/);
});
