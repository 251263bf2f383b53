/**
 * 200 for every documented success (seed §4), or the success status the profile declares for a write (issue
 * #66: a declared deviation, listed in the report) with the content that status implies.
 */

import { type DeclarableWrite, declaredStatus, replaceMethodOf } from '../declaration/deviations.ts';
import { type CollectionWriter, collectionWriter, itemPathOf, removeWithWriter } from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, need, unmet } from '../kit/kit.ts';
import {
  successAdmin,
  successDelete,
  successPost,
  successProtected,
  successPublic,
  successPut,
} from '../rules/success.ts';
import type { Rule } from '../rules/types.ts';
import { expectRule, expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/**
 * A write's answer against the status the profile declares for it (the seed's 200 unless declared), and the
 * content that status implies: none for 204 (RFC 9110 §15.3.5), a Location for a create whose document
 * declares one (RFC 9110 §15.3.2, profile `collection.createLocation`).
 */
function expectDeclaredSuccess(kit: Kit, ex: Exchange, method: DeclarableWrite, rule: Rule): void {
  const status = declaredStatus(kit.profile, method);
  const declared = status === 200 ? '' : ` (declared: ${method.toUpperCase()} ${status})`;
  expectStatus(ex, [status], rule, declared ? `as the profile declares${declared}` : undefined);
  if (status === 204)
    expectRule(ex.body.length === 0, rule, ex, 'no content with 204', `${ex.body.length} bytes of content`);
  if (method === 'post' && kit.profile.endpoints.collection?.createLocation)
    expectRule(
      ex.headers.location !== undefined,
      rule,
      ex,
      'a Location field naming the created item (declared: createLocation)',
      'no Location field',
    );
}

test(
  'GET public path without credentials → 200 with the resource in the body',
  forRule(successPublic),
  async ({ kit }) => {
    const endpoint = need(
      kit.endpoint('public'),
      'endpoints.public',
      'no path that answers without credentials',
    );
    const ex = await kit.send({ method: endpoint.method ?? 'GET', path: endpoint.path });
    expectStatus(ex, [200], successPublic);
    expectRule(
      ex.body.trim().length > 0,
      successPublic,
      ex,
      'a body with the requested resource',
      'an empty body',
    );
  },
);

test(
  'GET protected path with valid credentials of each accepted scheme → 200',
  forRule(successProtected),
  async ({ kit }) => {
    const endpoint = kit.guarded('protected');
    const { schemes } = endpoint;
    let sent = 0;
    for (const identity of ['user', 'admin'] as const) {
      for (const scheme of schemes) {
        const values = [await kit.authorization(identity, scheme)];
        // The profile's static token too, when the suite also mints its own.
        const token = kit.identity(identity)?.bearer;
        if (scheme === 'bearer' && token && kit.mint) values.push(kit.credentials.bearer(token));
        for (const authorization of values) {
          if (!authorization) continue;
          const ex = await kit.send({ method: endpoint.method ?? 'GET', path: endpoint.path }, authorization);
          expectStatus(
            ex,
            [200],
            successProtected,
            `for the ${identity} identity with ${kit.credentials.name(scheme)}`,
          );
          sent++;
        }
      }
    }
    if (sent === 0) lacks('identities.user', 'no credential in any scheme endpoints.protected accepts');
  },
);

test(
  'GET admin path with the admin identity in each accepted scheme → 200',
  forRule(successAdmin),
  async ({ kit }) => {
    const endpoint = kit.guarded('admin');
    const { schemes } = endpoint;
    let sent = 0;
    for (const scheme of schemes) {
      const authorization = await kit.authorization('admin', scheme);
      if (!authorization) continue;
      const ex = await kit.send({ method: endpoint.method ?? 'GET', path: endpoint.path }, authorization);
      expectStatus(ex, [200], successAdmin, `for the admin identity with ${kit.credentials.name(scheme)}`);
      sent++;
    }
    if (sent === 0) lacks('identities.admin', 'no credential in any scheme endpoints.admin accepts');
  },
);

/** POSTs the profile's sample item to the collection with the writer's credential. */
function postItem(kit: Kit, w: CollectionWriter) {
  return kit.target.send({
    method: 'POST',
    path: w.path,
    json: w.item,
    headers: { Authorization: w.authorization },
  });
}

test(
  'POST a new item to the collection with write permission → 200 (or the declared success status)',
  forRule(successPost),
  async ({ kit }) => {
    const w = await collectionWriter(kit);
    const ex = await postItem(kit, w);
    expectDeclaredSuccess(kit, ex, 'post', successPost);
    const itemPath = itemPathOf(w, ex);
    if (itemPath !== undefined) await removeWithWriter(kit, w, itemPath);
  },
);

/** Creates an item to act on; skips when creation fails (success.200.post judges that). */
async function created(kit: Kit) {
  const w = await collectionWriter(kit);
  const ex = await postItem(kit, w);
  if (ex.status < 200 || ex.status > 299)
    unmet(`creating an item answered ${ex.status} (see success.200.post)`, ['success.200.post']);
  const itemPath =
    itemPathOf(w, ex) ?? unmet(`the POST response carries no "${w.idField}" to address the new item`);
  return { ...w, itemPath };
}

test(
  'PUT (or the declared PATCH) an existing item with write permission → 200 (or the declared success status)',
  forRule(successPut),
  async ({ kit }) => {
    const c = await created(kit);
    const method = replaceMethodOf(kit.profile);
    const ex = await kit.target.send({
      method,
      path: c.itemPath,
      json: c.item,
      headers: { Authorization: c.authorization },
    });
    expectDeclaredSuccess(kit, ex, method === 'PATCH' ? 'patch' : 'put', successPut);
    await kit.target.send({
      method: 'DELETE',
      path: c.itemPath,
      headers: { Authorization: c.authorization },
    });
  },
);

test(
  'DELETE an existing item with write permission → 200 (or the declared success status)',
  forRule(successDelete),
  async ({ kit }) => {
    const c = await created(kit);
    const ex = await kit.target.send({
      method: 'DELETE',
      path: c.itemPath,
      headers: { Authorization: c.authorization },
    });
    expectDeclaredSuccess(kit, ex, 'delete', successDelete);
  },
);
