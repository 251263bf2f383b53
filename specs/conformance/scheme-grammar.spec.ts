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
import { schemeNearMiss, schemeSeparatorRecovered, schemeSeparatorSpaces } from '../rules/scheme-grammar.ts';
import type { Rule } from '../rules/types.ts';
import { judgeEachClass } from '../verdict/each-class.ts';
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
  'a valid credential under its scheme word with a character inserted, deleted, doubled or replaced at every position → 400 or 401',
  forRule(schemeNearMiss),
  async ({ kit }) => {
    // A word the profile declares an alias of a scheme (schemeAliases: Rails's Token) is not a near miss.
    const aliases = new Set(
      Object.values(kit.credentials.aliases).flatMap((a) => a.map((w) => w.toLowerCase())),
    );
    await probeSpellings(
      kit,
      schemeNearMiss,
      (word) =>
        schemeWordNearMisses(word)
          .filter((e) => !aliases.has(e.text.toLowerCase()))
          .map((e) => ({ label: e.label, word: e.text, separator: ' ' })),
      () => [400, 401],
    );
  },
);

test(
  'a valid credential without the space after its scheme word, or with a tab there → reported: the same credential recovered (RFC 9110 §2.2), or refused',
  forRule(schemeSeparatorRecovered),
  async ({ kit }) => {
    const seen: string[] = [];
    for (const { valid, word, canonical, status } of await acceptedWords(kit)) {
      for (const s of SEPARATOR_NEAR_MISSES) {
        const value = kit.credentials.respelled(valid.scheme, canonical, word, s.separator);
        if (value === undefined) continue;
        const ex = await kit.send(valid.probe, value);
        await kit.cleanup(valid.probe, ex, canonical);
        // The same answer as the canonical spelling: the credential recovered; 400/401: refused. Anything else
        // (another 2xx, a 5xx) is judged by the rules that judge every answer (observed.no-5xx).
        const verdict =
          ex.status === status
            ? 'recovered (accepted as the same credential)'
            : [400, 401].includes(ex.status)
              ? `refused (${ex.status})`
              : `answered ${ex.status}`;
        seen.push(`${word} with ${s.label}: ${verdict}`);
      }
    }
    kit.observe(seen.join('; '));
  },
);

test(
  'a valid credential with two or three spaces after its scheme word → the same 2xx as with one',
  forRule(schemeSeparatorSpaces),
  async ({ kit }) =>
    // Each class judged to its end (issue #67): refused runs of spaces never hide refused BWS around "=".
    judgeEachClass([
      {
        label: 'runs of spaces after the scheme word',
        run: () =>
          probeSpellings(
            kit,
            schemeSeparatorSpaces,
            (word) => SEPARATOR_RESPELLINGS.map((s) => ({ label: s.label, word, separator: s.separator })),
            (status) => [status],
          ),
      },
      {
        // The auth-param a key is sent in: BWS around its "=" (RFC 9110 §5.6.3: a recipient MUST remove it).
        label: 'whitespace around the key parameter\'s "="',
        run: async () => {
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
      },
    ]),
);
