/**
 * JWT validation on tokens the suite mints from profile.jwt (RFC 7519, RFC 7515 §4.1.11, RFC 8725).
 * Each refusal is judged only after a token minted the same way but valid has been accepted: otherwise a
 * target that refuses every token (or a profile with the wrong key) would pass vacuously.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, type Probe, unmet } from '../kit/kit.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import type { TokenMint } from '../lib/tokens.ts';
import { honouredTimes, refusedTimes, wrongIssuerAudience } from '../lib/wrong-type-claims.ts';
import { jwtWrongTypeLenient } from '../rules/jwt-claim-types.ts';
import {
  jwtAlgNone,
  jwtAudience,
  jwtCrit,
  jwtExpired,
  jwtIssuer,
  jwtKeyConfusion,
  jwtNotYetValid,
  jwtValid,
  jwtWrongType,
} from '../rules/jwt-claims.ts';
import type { Rule } from '../rules/types.ts';
import { expectStatus } from '../verdict/verify.ts';

type Claims = Readonly<Record<string, unknown>>;

/** The user's Bearer request, minting material and a control answer from a valid minted token. */
async function controlled(kit: Kit): Promise<{ probe: Probe; mint: TokenMint; claims: Claims }> {
  const probe = kit.probeFor('bearer', 'user');
  const { mint, claims } = kit.jwtClaims('user');
  const ex = await kit.send(probe, kit.credentials.bearer(await kit.minted(claims)));
  if (ex.status !== 200)
    unmet(
      `a valid token minted from profile.jwt answered ${ex.status}, not 200 (see jwt.claims.valid-accepted)`,
      ['jwt.claims.valid-accepted'],
    );
  return { probe, mint, claims };
}

test(
  "request accepting Bearer with a token freshly minted from the profile's key → 200",
  forRule(jwtValid),
  async ({ kit }) => {
    const probe = kit.probeFor('bearer', 'user');
    const { claims } = kit.jwtClaims('user');
    const ex = await kit.send(probe, kit.credentials.bearer(await kit.minted(claims)));
    expectStatus(ex, [200], jwtValid, "for a token minted with the profile's key, issuer and audience");
  },
);

/** Sends the token `make` mints after the control; `token` undefined means the profile lacks the material. */
async function expectRefused(
  kit: Kit,
  rule: Rule,
  make: (mint: TokenMint, claims: Claims) => Promise<string | undefined> | string | undefined,
) {
  const { probe, mint, claims } = await controlled(kit);
  const token = await make(mint, claims);
  if (token === undefined) lacks('jwt.publicJwk', "the target's public key (with an asymmetric alg)");
  const ex = await kit.send(probe, kit.credentials.bearer(token));
  expectStatus(ex, [401], rule);
}

test(
  'request accepting Bearer with a token whose exp passed an hour beyond the leeway → 401',
  forRule(jwtExpired),
  async ({ kit }) => {
    await expectRefused(kit, jwtExpired, (m, c) => m.expired(c));
  },
);

test(
  'request accepting Bearer with a token whose nbf is an hour beyond the leeway → 401',
  forRule(jwtNotYetValid),
  async ({ kit }) => {
    await expectRefused(kit, jwtNotYetValid, (m, c) => m.notYetValid(c));
  },
);

test(
  'request accepting Bearer with a token for another audience → 401',
  forRule(jwtAudience),
  async ({ kit }) => {
    if (!kit.profile.jwt?.audience)
      lacks('jwt.audience', 'the audience the target expects, to send a different one');
    await expectRefused(kit, jwtAudience, (m, c) => m.wrongAudience(c));
  },
);

test(
  'request accepting Bearer with a token from another issuer → 401',
  forRule(jwtIssuer),
  async ({ kit }) => {
    if (!kit.profile.jwt?.issuer)
      lacks('jwt.issuer', 'the issuer the target trusts, to send a different one');
    await expectRefused(kit, jwtIssuer, (m, c) => m.wrongIssuer(c));
  },
);

test(
  'request accepting Bearer with a token whose crit names an unknown extension → 401',
  forRule(jwtCrit),
  async ({ kit }) => {
    await expectRefused(kit, jwtCrit, (m, c) => m.unknownCrit(c));
  },
);

test(
  'request accepting Bearer with an unsecured token (alg "none", no signature) → 401',
  forRule(jwtAlgNone),
  async ({ kit }) => {
    await expectRefused(kit, jwtAlgNone, (m, c) => m.algNone(c));
  },
);

test(
  "request accepting Bearer with an HS256 token keyed by the target's public key → 401",
  forRule(jwtKeyConfusion),
  async ({ kit }) => {
    if (!kit.profile.jwt?.publicJwk) lacks('jwt.publicJwk', "the target's public key, to key HS256 with it");
    if (kit.profile.jwt?.alg.startsWith('HS'))
      lacks('jwt.alg', 'an asymmetric algorithm (key confusion needs a public key)');
    await expectRefused(kit, jwtKeyConfusion, (m, c) => m.keyConfusion(c));
  },
);

test(
  'request accepting Bearer with a validly signed token whose exp is past or nbf to come, written as a string, array, object or boolean, iss not a string, aud a number → 401',
  forRule(jwtWrongType),
  async ({ kit }) => {
    const { probe, mint, claims } = await controlled(kit);
    const { issuer, audience } = kit.profile.jwt ?? {};
    const wrong = [
      ...refusedTimes(Math.floor(Date.now() / 1000), mint.leeway),
      ...wrongIssuerAudience(issuer, audience),
    ];
    for (const { label, claims: changed } of wrong) {
      const token = await mint.fresh(claims, { claims: changed });
      rememberSecrets([token]);
      const ex = await kit.send(probe, kit.credentials.bearer(token));
      expectStatus(ex, [401], jwtWrongType, `for a token with ${label}`);
    }
  },
);

test(
  'request accepting Bearer with a validly signed token whose exp, nbf or iat carries a valid time as a string, array, object, boolean or null → reported as accepted or refused',
  forRule(jwtWrongTypeLenient),
  async ({ kit }) => {
    const { probe, mint, claims } = await controlled(kit);
    const accepted: string[] = [];
    const cases = honouredTimes(Math.floor(Date.now() / 1000));
    for (const { label, claims: changed } of cases) {
      const token = await mint.fresh(claims, { claims: changed });
      rememberSecrets([token]);
      const ex = await kit.send(probe, kit.credentials.bearer(token));
      if (ex.status >= 200 && ex.status < 300) accepted.push(label);
    }
    kit.observe(
      accepted.length === 0
        ? `refused all ${cases.length} tokens whose time claims carry a valid time in a JSON type other than a number`
        : `accepted ${accepted.length} of ${cases.length} tokens whose time claims carry a valid time in another JSON type (leniency): ${accepted.join(', ')}`,
    );
  },
);
