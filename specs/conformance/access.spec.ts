/**
 * 403 for a blocked address or location (seed §7 403 cause 2) and for a request closed by the target's
 * access rules (cause 5). "Authenticating again does not change the result" (seed §7 403): a fresh credential
 * is refused as well. The profile says how to appear blocked (`blocked`, docs/profile.md).
 */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, need, SCHEMES, unmet } from '../kit/kit.ts';
import type { Endpoint, Scheme } from '../profile/types.ts';
import { blockedClient, closedPath, unblockedServed } from '../rules/access.ts';
import { expectStatus } from '../verdict/verify.ts';

/**
 * Valid credentials for a request accepting `schemes` (any scheme when empty): the first, then fresh ones —
 * a newly minted Bearer token, and the same identity in each other scheme it has.
 */
async function credentials(
  kit: Kit,
  schemes: readonly Scheme[],
): Promise<{ label: string; value: string }[]> {
  const accepted = schemes.length > 0 ? schemes : SCHEMES;
  const out: { label: string; value: string }[] = [];
  for (const identity of ['user', 'admin'] as const) {
    for (const scheme of accepted) {
      const value = await kit.authorization(identity, scheme);
      if (value)
        out.push({ label: `the ${identity} identity's ${kit.credentials.name(scheme)} credential`, value });
    }
    const claims = kit.identity(identity)?.jwtClaims;
    if (kit.mint && claims && accepted.includes('bearer'))
      out.push({
        label: `a freshly minted token of the ${identity} identity`,
        value: kit.credentials.bearer(await kit.minted(claims)),
      });
    if (out.length > 0) return out;
  }
  return lacks('identities', 'no credential in a scheme the request accepts');
}

/** Requests that expect a refusal: a 403 without Retry-After is the verdict, not a ban to wait out. */
const EXPECTING_403 = { expect: [403] } as const;

/** The declared ways to appear blocked, and the protected endpoint they are tried on. */
function blockedSetting(kit: Kit) {
  const clients = need(kit.profile.blocked?.clients, 'blocked.clients', 'no way to appear blocked declared');
  return { clients, endpoint: kit.guarded('protected') };
}

function request(endpoint: Endpoint): { method: string; path: string } {
  return { method: endpoint.method ?? 'GET', path: endpoint.path };
}

test(
  'GET protected path as each blocked client, with valid and then fresh credentials → 403',
  forRule(blockedClient),
  async ({ kit }) => {
    const { clients, endpoint } = blockedSetting(kit);
    const creds = await credentials(kit, endpoint.schemes);
    for (const client of clients) {
      for (const { label, value } of creds) {
        const ex = await kit.send(request(endpoint), value, client.headers, EXPECTING_403);
        expectStatus(ex, [403], blockedClient, `for ${client.label} with ${label}`);
      }
    }
  },
);

test(
  'GET protected path as each blocked client → 403, and the same request as an unblocked client → 200',
  forRule(unblockedServed),
  async ({ kit }) => {
    const { clients, endpoint } = blockedSetting(kit);
    const [first] = await credentials(kit, endpoint.schemes);
    if (!first) return;
    for (const client of clients) {
      const blocked = await kit.send(request(endpoint), first.value, client.headers, EXPECTING_403);
      if (blocked.status !== 403)
        unmet(`${client.label} answered ${blocked.status}, not 403 (see access.403.blocked-client)`, [
          'access.403.blocked-client',
        ]);
      const ex = await kit.send(request(endpoint), first.value, client.unblockedHeaders);
      const as = client.unblockedHeaders
        ? `with ${Object.keys(client.unblockedHeaders).join(', ')} unblocked`
        : 'without those headers';
      expectStatus(
        ex,
        [200],
        unblockedServed,
        `for the client of ${client.label} ${as}, with ${first.label}`,
      );
    }
  },
);

test(
  'the closed request, with valid and then fresh credentials → 403',
  forRule(closedPath),
  async ({ kit }) => {
    const closed = need(
      kit.profile.blocked?.closed,
      'blocked.closed',
      'no request closed by configuration declared',
    );
    for (const { label, value } of await credentials(kit, closed.schemes ?? [])) {
      const ex = await kit.send(request(closed), value, undefined, EXPECTING_403);
      expectStatus(ex, [403], closedPath, `for ${closed.method ?? 'GET'} ${closed.path} with ${label}`);
    }
  },
);
