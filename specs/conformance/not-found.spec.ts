/** 404 for a path or id the target does not have, sent with valid credentials (seed §7; RFC 9110 §15.5.5). */

import { itemPathFor } from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { need } from '../kit/kit.ts';
import { unknownId, unknownPath } from '../rules/not-found.ts';
import { expectStatus } from '../verdict/verify.ts';

test('GET an unknown path with valid admin credentials → 404', forRule(unknownPath), async ({ kit }) => {
  const missing = need(
    kit.endpoint('missing'),
    'endpoints.missing',
    'no path the target is known not to have',
  );
  const authorization = await kit.adminAuthorizationFor(
    missing.schemes?.length ? missing : kit.endpoint('protected'),
  );
  const ex = await kit.send({ method: missing.method ?? 'GET', path: missing.path }, authorization);
  expectStatus(ex, [404], unknownPath);
});

test(
  'GET an unknown id in the collection with valid admin credentials → 404',
  forRule(unknownId),
  async ({ kit }) => {
    const c = need(kit.profile.endpoints.collection, 'endpoints.collection', 'no collection');
    const id = need(
      c.missingId,
      'endpoints.collection.missingId',
      'no id the collection is known not to hold',
    );
    const authorization = await kit.adminAuthorizationFor(
      c.schemes?.length ? c : { path: c.path, schemes: c.writeSchemes ?? [] },
    );
    const ex = await kit.send({ method: 'GET', path: itemPathFor(c, id) }, authorization);
    expectStatus(ex, [404], unknownId);
  },
);
