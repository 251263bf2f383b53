/**
 * Malformed credentials: 400 or 401 — both allowed (RFC 9110 §15.5.1 and RFC 6750 §3.1 for
 * invalid_request; §15.5.2 when the target treats them as no credentials) — never success, never 5xx.
 * Each is sent where its scheme is accepted, so only the credential's form is wrong.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, unmet } from '../kit/kit.ts';
import { CANONICAL_SCHEME_NAME, SEED_CREDENTIALS as SEED } from '../profile/credential-maker.ts';
import type { Scheme } from '../profile/types.ts';
import { duplicateAuthorization, malformedStatus } from '../rules/malformed.ts';
import { expectStatus } from '../verdict/verify.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** RFC 6750 §2.1 b64token, RFC 7617 §2 user-pass, RFC 9110 §11.4 credentials, each broken once. */
const CASES: readonly { scheme: Scheme; label: string; value: string }[] = [
  { scheme: 'bearer', label: 'the scheme name alone', value: SEED.raw('bearer', '') },
  { scheme: 'bearer', label: 'a space inside the token', value: SEED.raw('bearer', 'abc def') },
  {
    scheme: 'bearer',
    label: 'characters outside token68 ("@", ",", quotes)',
    value: SEED.raw('bearer', 'a@b,"c"'),
  },
  { scheme: 'basic', label: 'the scheme name alone', value: SEED.raw('basic', '') },
  { scheme: 'basic', label: 'characters outside base64', value: SEED.basicPayload('!!not*base64!!') },
  {
    scheme: 'basic',
    label: 'base64 of a user-pass without a colon',
    value: SEED.basicPayload(b64('gatecheck-no-colon')),
  },
  // A key: in the target's own form (profile apikeyScheme), the key broken; see apikeyCases.
  { scheme: 'apikey', label: 'the scheme name alone', value: '' },
  { scheme: 'apikey', label: 'a space inside the key', value: 'abc def' },
];

/**
 * The key's cases in the target's form: its word alone, and its word before a key with a space inside —
 * not as a quoted-string in the parameter form, where a space is legal (RFC 9110 §5.6.4). A key sent alone
 * has no word to send alone.
 */
function apikeyValue(kit: Kit, c: (typeof CASES)[number]): string {
  const { word, param } = kit.apikey;
  if (word === undefined)
    return c.value === '' ? unmet('the profile sends the key without a scheme word') : c.value;
  if (c.value === '') return word;
  return param === undefined ? kit.credentials.raw('apikey', c.value) : `${word} ${param}=${c.value}`;
}

for (const c of CASES) {
  test(
    `request accepting ${CANONICAL_SCHEME_NAME[c.scheme]} with ${c.label} → 400 or 401`,
    forRule(malformedStatus),
    async ({ kit }) => {
      const probe = kit.probeFor(c.scheme);
      const ex = await kit.send(probe, c.scheme === 'apikey' ? apikeyValue(kit, c) : c.value);
      expectStatus(ex, [400, 401], malformedStatus, `for ${kit.credentials.name(c.scheme)} with ${c.label}`);
    },
  );
}

test(
  'GET protected path with an empty Authorization value → 400 or 401',
  forRule(malformedStatus),
  async ({ kit }) => {
    const endpoint = kit.endpoint('protected') ?? lacks('endpoints.protected', 'no protected path');
    const ex = await kit.send({ method: endpoint.method ?? 'GET', path: endpoint.path }, '');
    expectStatus(ex, [400, 401], malformedStatus, 'for an empty Authorization value');
  },
);

test(
  'request with two Authorization lines, each valid alone → 400 or 401',
  forRule(duplicateAuthorization),
  async ({ kit }) => {
    const { probe, authorization } = await kit.anyValid('admin');
    let second: string | undefined;
    for (const scheme of probe.schemes) {
      const other = await kit.authorization('admin', scheme);
      if (other && other !== authorization) {
        second = other;
        break;
      }
    }
    // Two different valid credentials when the path takes two schemes; else the same one twice.
    const ex = await kit.target.sendLines(
      { method: probe.method, path: probe.path, ...(probe.json === undefined ? {} : { json: probe.json }) },
      [
        ['Authorization', authorization],
        ['Authorization', second ?? authorization],
      ],
    );
    await kit.cleanup(probe, ex, authorization);
    expectStatus(ex, [400, 401], duplicateAuthorization, 'for two Authorization field lines');
  },
);
