/** 403: understood and refused; authenticating again does not change it (seed §7 403; RFC 9110 §15.5.4). */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, need, unmet } from '../kit/kit.ts';
import type { Scheme } from '../profile/types.ts';
import { lackingRole, lackingScope, reauthFresh, reauthOtherScheme, reauthSame } from '../rules/forbidden.ts';
import { expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** RFC 9110 §15.5.4: a target that hides the resource from the identity may answer 404 instead. */
const REFUSED = [403, 404] as const;
/** Every request here expects a refusal: a 403 without Retry-After is the verdict, not a ban to wait out. */
const EXPECTING_403 = { expect: [403] } as const;

/** The user's first refusal on the admin path: which scheme, which credential, which answer. */
async function refusal(kit: Kit): Promise<{ scheme: Scheme; authorization: string; ex: Exchange }> {
  const admin = kit.guarded('admin');
  for (const scheme of admin.schemes) {
    const authorization = await kit.authorization('user', scheme);
    if (!authorization) continue;
    const ex = await kit.send(
      { method: admin.method ?? 'GET', path: admin.path },
      authorization,
      undefined,
      EXPECTING_403,
    );
    return { scheme, authorization, ex };
  }
  return lacks('identities.user', 'no credential of the user identity in a scheme endpoints.admin accepts');
}

test(
  'GET admin path with valid credentials of a non-admin identity, each accepted scheme → 403',
  forRule(lackingRole),
  async ({ kit }) => {
    const admin = kit.guarded('admin');
    let sent = 0;
    for (const scheme of admin.schemes) {
      const authorization = await kit.authorization('user', scheme);
      if (!authorization) continue;
      const ex = await kit.send(
        { method: admin.method ?? 'GET', path: admin.path },
        authorization,
        undefined,
        EXPECTING_403,
      );
      expectStatus(ex, REFUSED, lackingRole, `for the user identity with ${kit.credentials.name(scheme)}`);
      sent++;
    }
    if (sent === 0)
      lacks('identities.user', 'no credential of the user identity in a scheme endpoints.admin accepts');
  },
);

test(
  'GET admin path as a non-admin → 403, and the same credentials again → 403',
  forRule(reauthSame),
  async ({ kit }) => {
    const first = await refusal(kit);
    if (first.ex.status !== 403)
      unmet(`the first request answered ${first.ex.status}, not 403 (see authz.403.lacking-role)`, [
        'authz.403.lacking-role',
      ]);
    const admin = kit.guarded('admin');
    for (let i = 0; i < 2; i++) {
      const again = await kit.send(
        { method: admin.method ?? 'GET', path: admin.path },
        first.authorization,
        undefined,
        EXPECTING_403,
      );
      expectStatus(again, [403], reauthSame, `on repetition ${i + 1} with the same credentials`);
    }
  },
);

test(
  'GET admin path with a non-admin Bearer token → 403, and a freshly minted token → 403',
  forRule(reauthFresh),
  async ({ kit }) => {
    const admin = kit.guarded('admin');
    if (!admin.schemes.includes('bearer'))
      lacks('endpoints.admin.schemes', 'the admin path does not accept Bearer');
    const { mint, claims } = kit.jwtClaims('user');
    const path = { method: admin.method ?? 'GET', path: admin.path };
    const first = await kit.send(
      path,
      kit.credentials.bearer(await mint.fresh(claims)),
      undefined,
      EXPECTING_403,
    );
    if (first.status !== 403)
      unmet(`the first token answered ${first.status}, not 403 (see authz.403.lacking-role)`, [
        'authz.403.lacking-role',
      ]);
    const again = await kit.send(
      path,
      kit.credentials.bearer(await mint.fresh(claims)),
      undefined,
      EXPECTING_403,
    );
    expectStatus(again, [403], reauthFresh, 'for a freshly minted token of the same identity');
  },
);

/** Requests the user is refused that accept several schemes: the admin path, or a collection write. */
function refusedMultiScheme(
  kit: Kit,
): { field: string; method: string; path: string; json?: unknown; schemes: readonly Scheme[] }[] {
  const out: { field: string; method: string; path: string; json?: unknown; schemes: readonly Scheme[] }[] =
    [];
  const admin = kit.endpoint('admin');
  if (admin?.schemes && admin.schemes.length > 1) {
    out.push({
      field: 'endpoints.admin',
      method: admin.method ?? 'GET',
      path: admin.path,
      schemes: admin.schemes,
    });
  }
  const c = kit.profile.endpoints.collection;
  if (c?.writeSchemes && c.writeSchemes.length > 1 && c.sampleItem && (c.writer ?? 'admin') === 'admin') {
    out.push({
      field: 'endpoints.collection',
      method: 'POST',
      path: c.path,
      json: c.sampleItem,
      schemes: c.writeSchemes,
    });
  }
  return out;
}

test(
  'POST to the collection as an identity without write permission, each accepted scheme → 403',
  forRule(lackingScope),
  async ({ kit }) => {
    const c = need(kit.profile.endpoints.collection, 'endpoints.collection', 'no writable collection');
    const item = need(c.sampleItem, 'endpoints.collection.sampleItem', 'no item the target accepts');
    // The user identity is the one refused; with writer "user" or "any" (docs/profile.md) it may write.
    if (c.writer === 'user')
      lacks(
        'endpoints.collection.writer',
        'the user identity is the writer, so no identity lacks write permission',
      );
    if (c.writer === 'any')
      lacks(
        'endpoints.collection.writer',
        'writer "any": every authenticated identity may write, so no identity lacks write permission',
      );
    const schemes = need(
      c.writeSchemes?.length ? c.writeSchemes : undefined,
      'endpoints.collection.writeSchemes',
      'no scheme accepted for writes',
    );
    let sent = 0;
    for (const scheme of schemes) {
      const authorization = await kit.authorization('user', scheme);
      if (!authorization) continue;
      const probe = {
        field: 'endpoints.collection',
        method: 'POST',
        path: c.path,
        json: item,
        schemes,
        identities: ['admin' as const],
      };
      const ex = await kit.send(probe, authorization, undefined, EXPECTING_403);
      // Should the target wrongly accept it, the writer removes the item.
      const writer = await kit.authorization('admin', scheme);
      if (writer) await kit.cleanup(probe, ex, writer);
      expectStatus(ex, REFUSED, lackingScope, `for the user identity with ${kit.credentials.name(scheme)}`);
      sent++;
    }
    if (sent === 0)
      lacks(
        'identities.user',
        'no credential of the user identity in a scheme the collection accepts for writes',
      );
  },
);

test(
  'refused request as a non-admin → 403, and the same identity in another accepted scheme → 403',
  forRule(reauthOtherScheme),
  async ({ kit }) => {
    const candidates = refusedMultiScheme(kit);
    if (candidates.length === 0) {
      lacks(
        'endpoints.admin.schemes',
        'no refused request accepting two schemes (admin path or collection writes)',
      );
    }
    for (const req of candidates) {
      const creds: { scheme: Scheme; authorization: string }[] = [];
      for (const scheme of req.schemes) {
        const authorization = await kit.authorization('user', scheme);
        if (authorization) creds.push({ scheme, authorization });
      }
      const [first, ...others] = creds;
      if (!first || others.length === 0) continue;
      const ex = await kit.send(req, first.authorization, undefined, EXPECTING_403);
      if (ex.status !== 403)
        unmet(`${req.field} answered ${ex.status} to the user, not 403 (see authz.403.*)`, ['authz.403.*']);
      for (const other of others) {
        const again = await kit.send(req, other.authorization, undefined, EXPECTING_403);
        expectStatus(
          again,
          [403],
          reauthOtherScheme,
          `after switching from ${kit.credentials.name(first.scheme)} to ${kit.credentials.name(other.scheme)} on ${req.field}`,
        );
      }
      return;
    }
    lacks('identities.user', 'no two credentials of the user identity for a refused request');
  },
);
