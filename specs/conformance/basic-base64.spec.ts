/**
 * Base64 strictness of Basic (RFC 7617 §2 → RFC 4648 §3.3, §4; level and reasons in
 * specs/rules/basic-base64.ts): variants of a credential the target accepts, each one no longer base64 of
 * RFC 4648 §4, must be refused — a lenient decoder that skips stray characters or takes the URL-safe
 * alphabet turns them back into the valid credential and lets them in.
 */
import { forRule, test } from '../fixtures.ts';
import { basicCredentials, need, unmet } from '../lib/kit.ts';
import { expectRule } from '../lib/verify.ts';
import { basicBase64Strict } from '../rules/basic-base64.ts';

/** Variants of a valid base64 payload that a strict decoder refuses, by what each breaks. */
function variants(payload: string): { label: string; value: string }[] {
  const middle = Math.floor(payload.length / 2);
  const out = [
    // RFC 4648 §3.3: characters outside the base alphabet MUST be rejected.
    { label: 'a "!" inside the payload', value: `${payload.slice(0, middle)}!${payload.slice(middle)}` },
    { label: 'a "*" after the first group', value: `${payload.slice(0, 4)}*${payload.slice(4)}` },
    // §3.3: excess pad characters may be ignored only where the referring specification says so.
    { label: 'an excess pad', value: payload.endsWith('=') ? `${payload}=` : `${payload}==` },
  ];
  // §5's "-" and "_" are outside the §4 alphabet; only a payload with "+" or "/" has a URL-safe twin.
  if (/[+/]/.test(payload))
    out.push({ label: 'the URL-safe alphabet', value: payload.replace(/\+/g, '-').replace(/\//g, '_') });
  return out;
}

test(
  'a valid Basic credential with stray characters, an excess pad or the URL-safe alphabet → 400 or 401',
  forRule(basicBase64Strict),
  async ({ kit }) => {
    const endpoint = kit.probes().find((p) => p.method === 'GET' && p.schemes.includes('basic'));
    if (!endpoint) need(undefined, 'endpoints.*.schemes (basic)', 'no GET endpoint accepting Basic');
    const probe = endpoint as NonNullable<typeof endpoint>;
    const basic = need(kit.identity('admin')?.basic, 'identities.admin.basic', 'no Basic credential');
    const valid = basicCredentials(basic.username, basic.password);
    const accepted = await kit.send(probe, valid);
    if (accepted.status < 200 || accepted.status > 299)
      unmet(`the valid Basic credential answered ${accepted.status}, not 2xx`);
    const payload = valid.slice(valid.indexOf(' ') + 1);
    for (const variant of variants(payload)) {
      const ex = await kit.send(probe, `Basic ${variant.value}`);
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
