/**
 * The scheme word and its separator, from the grammar (specs/rules/scheme-grammar.ts; RFC 9110 §11.1,
 * §11.4): a valid credential of each accepted scheme, first seen accepted, then sent under every near miss of
 * its word (specs/fuzz/grammar/credential-edits.ts: every position of the word) and every separator — near
 * misses refused, legal respellings answered like the canonical value. A write the target wrongly accepts is
 * removed again.
 */
import { BWS_RESPELLINGS } from '../fuzz/grammar/auth-param.ts';
import {
  SEPARATOR_NEAR_MISSES,
  SEPARATOR_RESPELLINGS,
  schemeWordNearMisses,
} from '../fuzz/grammar/credential-edits.ts';
import { type ValidSecret, validSecrets } from '../kit/boundaries.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, unmet } from '../kit/kit.ts';
import { schemeNearMiss, schemeSeparatorSpaces } from '../rules/scheme-grammar.ts';
import type { Rule } from '../rules/types.ts';
import { expectStatus } from '../verdict/verify.ts';

interface Respelling {
  readonly label: string;
  readonly word: string;
  readonly separator: string;
}

/** Each valid secret with a scheme word, its canonical value seen accepted; a key sent alone has no word. */
async function acceptedWords(
  kit: Kit,
): Promise<{ valid: ValidSecret; word: string; canonical: string; status: number }[]> {
  const secrets = await validSecrets(kit);
  if (secrets.length === 0)
    lacks('identities', 'no valid credential in a scheme that some declared request accepts');
  const out = [];
  for (const valid of secrets) {
    const word = kit.credentials.word(valid.scheme);
    if (word === undefined) continue;
    const canonical = valid.build(valid.secret);
    const ex = await kit.send(valid.probe, canonical);
    await kit.cleanup(valid.probe, ex, canonical);
    if (ex.status < 200 || ex.status > 299)
      unmet(
        `the valid ${word} credential answered ${ex.status} on ${valid.probe.field}, not 2xx (see success.200.*)`,
        ['success.200.*'],
      );
    out.push({ valid, word, canonical, status: ex.status });
  }
  if (out.length === 0) unmet('the profile sends its only credential, a key, without a scheme word');
  return out;
}

async function probeSpellings(
  kit: Kit,
  rule: Rule,
  spellings: (word: string) => readonly Respelling[],
  allowed: (status: number) => readonly number[],
): Promise<void> {
  for (const { valid, word, canonical, status } of await acceptedWords(kit)) {
    for (const spelling of spellings(word)) {
      const value = kit.credentials.respelled(valid.scheme, canonical, spelling.word, spelling.separator);
      if (value === undefined) continue;
      const ex = await kit.send(valid.probe, value);
      await kit.cleanup(valid.probe, ex, canonical);
      expectStatus(
        ex,
        allowed(status),
        rule,
        `for the ${valid.identity} identity's ${word} credential with ${spelling.label} on ${valid.probe.field}`,
      );
    }
  }
}

test(
  'a valid credential under its scheme word with a character inserted, deleted, doubled or replaced at every position, or without the space after it → 400 or 401',
  forRule(schemeNearMiss),
  async ({ kit }) =>
    probeSpellings(
      kit,
      schemeNearMiss,
      (word) => [
        ...schemeWordNearMisses(word).map((e) => ({ label: e.label, word: e.text, separator: ' ' })),
        ...SEPARATOR_NEAR_MISSES.map((s) => ({ label: s.label, word, separator: s.separator })),
      ],
      () => [400, 401],
    ),
);

test(
  'a valid credential with two or three spaces after its scheme word → the same 2xx as with one',
  forRule(schemeSeparatorSpaces),
  async ({ kit }) => {
    await probeSpellings(
      kit,
      schemeSeparatorSpaces,
      (word) => SEPARATOR_RESPELLINGS.map((s) => ({ label: s.label, word, separator: s.separator })),
      (status) => [status],
    );
    // The auth-param a key is sent in: BWS around its "=" (RFC 9110 §5.6.3: a recipient MUST remove it).
    const valid = (await acceptedWords(kit)).find((a) => a.valid.scheme === 'apikey');
    for (const spelling of valid === undefined ? [] : BWS_RESPELLINGS) {
      const value = kit.credentials.apikeyParam(valid?.valid.secret ?? '', spelling);
      if (valid === undefined || value === undefined) break;
      const ex = await kit.send(valid.valid.probe, value);
      await kit.cleanup(valid.valid.probe, ex, valid.canonical);
      expectStatus(
        ex,
        [valid.status],
        schemeSeparatorSpaces,
        `for the ${valid.valid.identity} identity's key with ${spelling.label} of its parameter on ${valid.valid.probe.field}`,
      );
    }
  },
);
