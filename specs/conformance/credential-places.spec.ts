/**
 * Credentials in other places (specs/rules/credential-places.ts; RFC 6750 §2.2, §2.3; seed §5 rules 1–2): a token
 * or key the target must refuse, sent in the query or as a form body `access_token` and nowhere else, is never
 * answered with 2xx — on the protected path, and on the admin path (where the user's own is one of them).
 */
import { forRule, test } from '../kit/fixtures.ts';
import { unmet } from '../kit/kit.ts';
import { refusedElsewhere } from '../kit/refused-credentials.ts';
import { redactText, rememberSecrets } from '../lib/secrets.ts';
import { credentialOtherPlaces as rule } from '../rules/credential-places.ts';
import { expectRule } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** RFC 6750 §2.3 `access_token`, and the names API-key deployments read from the query. */
const QUERY_NAMES = ['access_token', 'token', 'api_key', 'apikey', 'key'] as const;

/**
 * Never 2xx. The credential is in the URL: the evidence gets the URL with every remembered secret redacted
 * (its header fields and replay line are redacted as in any evidence).
 */
function judged(ex: Exchange, where: string): void {
  const success = ex.status >= 200 && ex.status <= 299;
  const shown = { ...ex, request: { ...ex.request, url: redactText(ex.request.url) } };
  expectRule(!success, rule, shown, `any status but 2xx for ${where}`, `status ${ex.status}`);
}

test(
  "GET protected and admin paths with a forged, expired or wrong credential (on the admin path also the user's) only in the query (access_token, token, api_key, apikey, key) or POST with it as a form body access_token → never 2xx",
  forRule(rule),
  async ({ kit }) => {
    const refused = await refusedElsewhere(kit);
    if (refused.length === 0)
      unmet('the profile gives no Bearer token or API key of the admin or user identity to send elsewhere');
    rememberSecrets(refused.map((c) => c.value));
    const paths = [kit.endpoint('protected'), kit.endpoint('admin')].filter((e) => e !== undefined);
    for (const endpoint of paths) {
      const onAdmin = endpoint === kit.endpoint('admin');
      for (const credential of refused) {
        if (credential.adminOnly && !onAdmin) continue;
        for (const name of QUERY_NAMES) {
          const separator = endpoint.path.includes('?') ? '&' : '?';
          const path = `${endpoint.path}${separator}${name}=${encodeURIComponent(credential.value)}`;
          const ex = await kit.send({ method: endpoint.method ?? 'GET', path });
          judged(ex, `${credential.label} as the query parameter ${name}`);
        }
      }
    }
    // RFC 6750 §2.2: the form-encoded body parameter, on a method with a body: the protected path and the
    // collection a write goes to.
    const writes = [kit.endpoint('protected')?.path, kit.profile.endpoints.collection?.path].filter(
      (p) => p !== undefined,
    );
    for (const path of writes)
      for (const credential of refused.filter((c) => !c.adminOnly && c.bearer)) {
        const ex = await kit.target.send({
          method: 'POST',
          path,
          body: `access_token=${encodeURIComponent(credential.value)}`,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        });
        judged(ex, `${credential.label} as the form body access_token`);
      }
  },
);
