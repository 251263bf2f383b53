/**
 * Base64 of Basic (RFC 7617 §2 → RFC 4648 §3.3, §4; levels and the sentences they follow in
 * specs/rules/basic-base64.ts): variants of a credential the target accepts. Those with characters outside
 * the §4 alphabet must be refused — a lenient decoder that skips stray characters or takes the URL-safe
 * alphabet turns them back into the valid credential and lets them in. Excess padding may be ignored or
 * refused (§3.3 "MAY also be ignored"): that one is reported.
 */

import { base64Intruders } from '../fuzz/grammar/credential-edits.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, need, unmet } from '../kit/kit.ts';
import { basicBase64ExcessPadding, basicBase64Strict } from '../rules/basic-base64.ts';
import { expectRule } from '../verdict/verify.ts';

/** Variants of a valid base64 payload with characters outside the alphabet, by what each adds. */
function outsideAlphabet(payload: string): { label: string; value: string }[] {
  const middle = Math.floor(payload.length / 2);
  const out = [
    // RFC 4648 §3.3: characters outside the base alphabet MUST be rejected.
    { label: 'a "!" inside the payload', value: `${payload.slice(0, middle)}!${payload.slice(middle)}` },
    { label: 'a "*" after the first group', value: `${payload.slice(0, 4)}*${payload.slice(4)}` },
    // "-", ".", "_", "~" lie inside token68 (RFC 9110 §11.2): a token68 shape check lets them through to the
    // decoder, which must refuse them — at every position, where a lenient one skips or remaps them.
    ...base64Intruders(payload).map((edit) => ({ label: edit.label, value: edit.text })),
  ];
  // §5's "-" and "_" are outside the §4 alphabet; only a payload with "+" or "/" has a URL-safe twin.
  if (/[+/]/.test(payload))
    out.push({ label: 'the URL-safe alphabet', value: payload.replace(/\+/g, '-').replace(/\//g, '_') });
  return out;
}

/** A GET endpoint taking Basic, and the admin's valid credential, seen accepted there first. */
async function acceptedBasic(kit: Kit) {
  const endpoint = kit.probes().find((p) => p.method === 'GET' && p.schemes.includes('basic'));
  if (!endpoint) need(undefined, 'endpoints.*.schemes (basic)', 'no GET endpoint accepting Basic');
  const probe = endpoint as NonNullable<typeof endpoint>;
  const basic = need(kit.identity('admin')?.basic, 'identities.admin.basic', 'no Basic credential');
  const valid = kit.credentials.basic(basic.username, basic.password);
  const accepted = await kit.send(probe, valid);
  if (accepted.status < 200 || accepted.status > 299)
    unmet(`the valid Basic credential answered ${accepted.status}, not 2xx (see success.200.*)`, [
      'success.200.*',
    ]);
  return { probe, payload: valid.slice(valid.indexOf(' ') + 1) };
}

test(
  'a valid Basic credential with characters outside the base64 alphabet ("!", "*", URL-safe; "-", ".", "_", "~" at every position up to the pad) → 400 or 401',
  forRule(basicBase64Strict),
  async ({ kit }) => {
    const { probe, payload } = await acceptedBasic(kit);
    for (const variant of outsideAlphabet(payload)) {
      const ex = await kit.send(probe, kit.credentials.basicPayload(variant.value));
      expectRule(
        ex.status === 400 || ex.status === 401,
        basicBase64Strict,
        ex,
        `status 400 or 401 for the valid credential with ${variant.label}`,
        `status ${ex.status}`,
      );
    }
  },
);

test(
  'a valid Basic credential with an excess pad → reported as ignored (accepted) or refused',
  forRule(basicBase64ExcessPadding),
  async ({ kit }) => {
    const { probe, payload } = await acceptedBasic(kit);
    const padded = payload.endsWith('=') ? `${payload}=` : `${payload}==`;
    const ex = await kit.send(probe, kit.credentials.basicPayload(padded));
    const choice =
      ex.status >= 200 && ex.status < 300
        ? 'ignored: the credential was accepted'
        : ex.status === 400 || ex.status === 401
          ? 'refused'
          : 'answered neither as accepted nor as refused';
    kit.observe(`a valid Basic credential with an excess pad → ${ex.status} (${choice})`);
  },
);
