/**
 * Credential checks at their boundaries (seed §5 rule 2; RFC 9110 §15.5.2): a valid credential from the
 * profile, changed in one way, is refused — in every scheme a declared request accepts. Each boundary is a
 * rule of its own, so the report names the comparison that let a near miss through (docs/rules.md).
 */

import {
  caseVariants,
  emptyVariants,
  oneCharVariants,
  prefixVariants,
  suffixVariants,
  type ValidSecret,
  type Variant,
  validSecrets,
  whitespaceVariants,
} from '../kit/boundaries.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, SCHEMES, unmet } from '../kit/kit.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import {
  caseChanged,
  emptySecret,
  oneCharacterChanged,
  otherIdentityPassword,
  otherScheme,
  secretPrefix,
  secretSuffix,
  whitespace,
} from '../rules/boundaries.ts';
import type { Rule } from '../rules/types.ts';
import { expectStatus } from '../verdict/verify.ts';

/** Sends every variant of every valid secret; a write the target wrongly accepts is removed again. */
async function probeBoundary(
  kit: Kit,
  rule: Rule,
  make: (valid: ValidSecret) => Variant[],
  allowed: (valid: ValidSecret) => readonly number[],
): Promise<void> {
  const secrets = await validSecrets(kit);
  if (secrets.length === 0)
    lacks('identities', 'no valid credential in a scheme that some declared request accepts');
  for (const valid of secrets) {
    for (const variant of make(valid)) {
      const ex = await kit.send(valid.probe, variant.authorization);
      await kit.cleanup(valid.probe, ex, valid.build(valid.secret));
      expectStatus(
        ex,
        allowed(valid),
        rule,
        `for the ${valid.identity} identity's ${kit.credentials.name(valid.scheme)} credential with ${variant.label} on ${valid.probe.field}`,
      );
    }
  }
}

/** Well-formed in every scheme: only 401 (seed §5 rule 2). */
const WELL_FORMED = () => [401] as const;
/** An empty or split token is malformed (RFC 9110 §11.4 token68): 400 is allowed too; Basic stays well-formed. */
const MAYBE_MALFORMED = (valid: ValidSecret) => (valid.scheme === 'basic' ? [401] : [400, 401]);

test(
  'known identity with an empty password, token or key, each accepted scheme → 401 (400 for an empty token)',
  forRule(emptySecret),
  async ({ kit }) => probeBoundary(kit, emptySecret, emptyVariants, MAYBE_MALFORMED),
);

test(
  'prefixes of a valid password, token or key (all but the last character, half, one character) → 401',
  forRule(secretPrefix),
  async ({ kit }) => probeBoundary(kit, secretPrefix, prefixVariants, WELL_FORMED),
);

test(
  'a valid password, token or key with characters appended → 401',
  forRule(secretSuffix),
  async ({ kit }) => probeBoundary(kit, secretSuffix, suffixVariants, WELL_FORMED),
);

test(
  'a valid password, token or key with one character changed at its start, middle and end → 401',
  forRule(oneCharacterChanged),
  async ({ kit }) => probeBoundary(kit, oneCharacterChanged, oneCharVariants, WELL_FORMED),
);

test(
  'a valid password, token or key with its letter case inverted → 401',
  forRule(caseChanged),
  async ({ kit }) => probeBoundary(kit, caseChanged, caseVariants, WELL_FORMED),
);

test(
  'Basic with a space around the user-id or password inside the payload → 401; a token followed by whitespace and a word → 400 or 401',
  forRule(whitespace),
  async ({ kit }) => probeBoundary(kit, whitespace, whitespaceVariants, MAYBE_MALFORMED),
);

test(
  "a known Basic user-id with another identity's password, both ways → 401",
  forRule(otherIdentityPassword),
  async ({ kit }) => {
    const admin = kit.identity('admin')?.basic;
    const user = kit.identity('user')?.basic;
    if (!admin || !user) lacks('identities.admin.basic', 'Basic credentials of two identities are needed');
    if (admin.password === user.password)
      lacks('identities.user.basic', 'the two identities share a password, so no other password exists');
    const probe = kit.probeFor('basic');
    for (const [who, username, password] of [
      ['the admin user-id with the user password', admin.username, user.password],
      ['the user user-id with the admin password', user.username, admin.password],
    ] as const) {
      const ex = await kit.send(probe, kit.credentials.basic(username, password));
      await kit.cleanup(probe, ex, kit.credentials.basic(admin.username, admin.password));
      expectStatus(ex, [401], otherIdentityPassword, `for ${who} on ${probe.field}`);
    }
  },
);

/** RFC 9110 §5.5 field-value: a secret with a character outside visible ASCII cannot go out as a token or key. */
const FIELD_SAFE = /^[\x21-\x7e]+$/;

test(
  'a valid password, token or key under every other accepted scheme (key as Bearer, token as key, password as token or key, token as Basic password) → 400 or 401',
  forRule(otherScheme),
  async ({ kit }) => {
    const secrets = await validSecrets(kit);
    if (secrets.length === 0)
      lacks('identities', 'no valid credential in a scheme that some declared request accepts');
    let sent = 0;
    for (const valid of secrets) {
      for (const other of SCHEMES) {
        if (other === valid.scheme || (other !== 'basic' && !FIELD_SAFE.test(valid.secret))) continue;
        // The other scheme's word is one the target takes for this very credential (profile schemeAliases,
        // Rails's Token beside Bearer): the same credential under an alias, not another scheme's (issue #68).
        const otherWord = kit.schemeWord(other)?.toLowerCase();
        if (kit.credentials.aliases[valid.scheme]?.some((a) => a.toLowerCase() === otherWord)) continue;
        const probe =
          kit.probes().find((p) => p.schemes.includes(other) && p.identities.includes(valid.identity)) ??
          kit.probes().find((p) => p.schemes.includes(other));
        if (probe === undefined) continue;
        // A token as the Basic password goes with the identity's own user-id: the likeliest confusion.
        const value = kit.credentials.under(
          other,
          valid.secret,
          kit.identity(valid.identity)?.basic?.username,
        );
        rememberSecrets([value]);
        const ex = await kit.send(probe, value);
        await kit.cleanup(probe, ex, value);
        sent++;
        expectStatus(
          ex,
          [400, 401],
          otherScheme,
          `for the ${valid.identity} identity's ${kit.credentials.name(valid.scheme)} credential sent as ${kit.credentials.name(other)} on ${probe.field}`,
        );
      }
    }
    if (sent === 0) unmet('no declared request accepts a second scheme beside the one of a valid credential');
  },
);
