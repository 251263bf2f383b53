/** 200 for every documented success (seed §4). */

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
import { expectRule, expectStatus } from '../verdict/verify.ts';

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
  'POST a new item to the collection with write permission → 200',
  forRule(successPost),
  async ({ kit }) => {
    const w = await collectionWriter(kit);
    const ex = await postItem(kit, w);
    expectStatus(ex, [200], successPost);
    const itemPath = itemPathOf(w, ex);
    if (itemPath !== undefined) await removeWithWriter(kit, w, itemPath);
  },
);

/** Creates an item to act on; skips when creation fails (success.200.post judges that). */
async function created(kit: Kit) {
  const w = await collectionWriter(kit);
  const ex = await postItem(kit, w);
  if (ex.status < 200 || ex.status > 299)
    unmet(`creating an item answered ${ex.status} (see success.200.post)`);
  const itemPath =
    itemPathOf(w, ex) ?? unmet(`the POST response carries no "${w.idField}" to address the new item`);
  return { ...w, itemPath };
}

test('PUT an existing item with write permission → 200', forRule(successPut), async ({ kit }) => {
  const c = await created(kit);
  const ex = await kit.target.send({
    method: 'PUT',
    path: c.itemPath,
    json: c.item,
    headers: { Authorization: c.authorization },
  });
  expectStatus(ex, [200], successPut);
  await kit.target.send({ method: 'DELETE', path: c.itemPath, headers: { Authorization: c.authorization } });
});

test('DELETE an existing item with write permission → 200', forRule(successDelete), async ({ kit }) => {
  const c = await created(kit);
  const ex = await kit.target.send({
    method: 'DELETE',
    path: c.itemPath,
    headers: { Authorization: c.authorization },
  });
  expectStatus(ex, [200], successDelete);
});
