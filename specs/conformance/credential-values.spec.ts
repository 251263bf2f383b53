/**
 * Inside the credential, from the grammar (specs/rules/credential-grammar.ts; RFC 7617 §2, RFC 6750 §2.1,
 * RFC 9110 §11.2): a valid credential, first seen accepted, then sent with one edit at every position of its
 * value (specs/fuzz/grammar/value-edits.ts) — the decoded user-pass of each declared Basic identity, the key,
 * the Bearer token. Every near miss must be refused. The failures are gathered, so one answer names how many
 * edits were let in and which; a write the target wrongly accepts is removed again.
 */

import { paramNameNearMisses } from '../fuzz/grammar/auth-param.ts';
import type { GrammarEdit } from '../fuzz/grammar/edits.ts';
import {
  isToken68Shaped,
  tokenValueNearMisses,
  userPassNearMisses,
  userPassWellFormed,
} from '../fuzz/grammar/value-edits.ts';
import { validSecrets } from '../kit/boundaries.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type IdentityName, type Kit, lacks, type Probe, unmet } from '../kit/kit.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import { basicUserPassNearMiss, credentialValueNearMiss } from '../rules/credential-grammar.ts';
import type { Rule } from '../rules/types.ts';
import { expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** Requests in flight at once while the edits of one value are sent. */
const IN_FLIGHT = 8;

interface Sent {
  readonly edit: GrammarEdit;
  readonly ex: Exchange;
  readonly allowed: readonly number[];
}

/** `authorization` seen accepted on `probe` (2xx), or the check is unmet. */
async function seenAccepted(kit: Kit, probe: Probe, authorization: string, what: string): Promise<void> {
  const ex = await kit.send(probe, authorization);
  await kit.cleanup(probe, ex, authorization);
  if (ex.status < 200 || ex.status > 299)
    unmet(`the valid ${what} answered ${ex.status} on ${probe.field}, not 2xx (see success.200.*)`, [
      'success.200.*',
    ]);
}

/** Sends every edit (IN_FLIGHT at a time), then fails once, on the first refused too little, naming the rest. */
async function sendEdits(
  kit: Kit,
  rule: Rule,
  probe: Probe,
  what: string,
  edits: readonly GrammarEdit[],
  build: (edit: GrammarEdit) => { authorization: string; allowed: readonly number[] },
): Promise<void> {
  rememberSecrets(edits.map((e) => e.text));
  const sent: Sent[] = [];
  for (let i = 0; i < edits.length; i += IN_FLIGHT) {
    const batch = edits.slice(i, i + IN_FLIGHT).map(async (edit) => {
      const { authorization, allowed } = build(edit);
      const ex = await kit.send(probe, authorization);
      await kit.cleanup(probe, ex, authorization);
      return { edit, ex, allowed };
    });
    sent.push(...(await Promise.all(batch)));
  }
  const wrong = sent.filter((s) => !s.allowed.includes(s.ex.status));
  const first = wrong[0];
  if (first === undefined) return;
  const more =
    wrong.length > 1
      ? ` (and ${wrong.length - 1} more of ${edits.length}: ${wrong
          .slice(1, 6)
          .map((s) => `${s.edit.label} → ${s.ex.status}`)
          .join('; ')}${wrong.length > 6 ? '; …' : ''})`
      : '';
  expectStatus(
    first.ex,
    first.allowed,
    rule,
    `for ${what} with ${first.edit.label} on ${probe.field}${more}`,
  );
}

/** Each identity some declared request accepts Basic from, with its credential (once per identity). */
function basicIdentities(
  kit: Kit,
): { identity: IdentityName; probe: Probe; username: string; password: string }[] {
  const out = [];
  const seen = new Set<IdentityName>();
  const probes = kit.probes().filter((p) => p.schemes.includes('basic'));
  // Reads first: a write the target wrongly takes leaves an item to remove.
  probes.sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
  for (const probe of probes)
    for (const identity of probe.identities) {
      const basic = kit.identity(identity)?.basic;
      if (basic === undefined || seen.has(identity)) continue;
      seen.add(identity);
      out.push({ identity, probe, ...basic });
    }
  return out;
}

test(
  'a valid Basic credential with one character inserted, deleted, doubled or replaced at every position of its user-pass and around its ":" → 401 (400 without a ":" or with a control character)',
  forRule(basicUserPassNearMiss),
  async ({ kit }) => {
    const identities = basicIdentities(kit);
    if (identities.length === 0)
      lacks('identities.*.basic', 'no Basic identity for an endpoint that accepts Basic');
    // Every identity's user-pass is a valid credential: an edit landing on one is not a near miss.
    const valid = (['admin', 'user', 'ratelimit'] as const).flatMap((name) => {
      const basic = kit.identity(name)?.basic;
      return basic === undefined ? [] : [`${basic.username}:${basic.password}`];
    });
    for (const { identity, probe, username, password } of identities) {
      const what = `the ${identity} identity's Basic credential`;
      await seenAccepted(kit, probe, kit.credentials.basic(username, password), what);
      await sendEdits(
        kit,
        basicUserPassNearMiss,
        probe,
        what,
        userPassNearMisses(username, password, valid),
        (edit) => ({
          authorization: kit.credentials.basicUserPass(edit.text),
          allowed: userPassWellFormed(edit.text) ? [401] : [400, 401],
        }),
      );
    }
  },
);

test(
  'a valid API key or Bearer token with one character inserted, deleted, doubled or replaced at every position → 401 (400 when no longer token68)',
  forRule(credentialValueNearMiss),
  async ({ kit }) => {
    const secrets = (await validSecrets(kit)).filter((s) => s.scheme !== 'basic');
    if (secrets.length === 0)
      lacks(
        'identities.*.bearer / apikey',
        'no valid key or token in a scheme some declared request accepts',
      );
    for (const valid of secrets) {
      const what = `the ${valid.identity} identity's ${kit.credentials.name(valid.scheme)} credential`;
      await seenAccepted(kit, valid.probe, valid.build(valid.secret), what);
      const jwt = valid.scheme === 'bearer' && valid.secret.split('.').length === 3;
      await sendEdits(
        kit,
        credentialValueNearMiss,
        valid.probe,
        what,
        tokenValueNearMisses(valid.secret, jwt),
        (edit) => ({
          authorization: valid.build(edit.text),
          allowed: isToken68Shaped(edit.text) ? [401] : [400, 401],
        }),
      );
      // The auth-param a key is sent in (RFC 9110 §11.2): another parameter name carries no key.
      const param = valid.scheme === 'apikey' ? kit.credentials.apikeyForm.param : undefined;
      if (param !== undefined)
        await sendEdits(
          kit,
          credentialValueNearMiss,
          valid.probe,
          what,
          paramNameNearMisses(param),
          (edit) => ({
            authorization: kit.credentials.apikeyParam(valid.secret, { name: edit.text }) as string,
            allowed: [400, 401],
          }),
        );
    }
  },
);
