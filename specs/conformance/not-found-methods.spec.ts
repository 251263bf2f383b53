/**
 * Every write method on a path the target does not have → 404 (specs/rules/not-found-methods.ts; seed §7 404,
 * RFC 9110 §15.5.5): with valid admin credentials 404, without credentials 404 or 401 — never 405 (§15.5.6: a
 * method refused by a resource there is none of), never 2xx.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { need } from '../kit/kit.ts';
import { unknownPathMethods } from '../rules/not-found-methods.ts';
import { expectStatus } from '../verdict/verify.ts';

/** RFC 9110 §9.3.3–§9.3.5 and RFC 5789: the methods that write; GET is route.404.unknown-path's. */
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

test(
  'POST, PUT, PATCH and DELETE to an unknown path with valid admin credentials → 404, without credentials → 404 or 401; never 405 or 2xx',
  forRule(unknownPathMethods),
  async ({ kit }) => {
    const missing = need(
      kit.endpoint('missing'),
      'endpoints.missing',
      'no path the target is known not to have',
    );
    const authorization = await kit.adminAuthorizationFor(
      missing.schemes?.length ? missing : kit.endpoint('protected'),
    );
    // A body the target would take as an item, so a 404 is for the path and not for the body.
    const json = kit.profile.endpoints.collection?.sampleItem ?? {};
    for (const method of WRITES) {
      const probe = { method, path: missing.path, ...(method === 'DELETE' ? {} : { json }) };
      expectStatus(await kit.send(probe, authorization), [404], unknownPathMethods, 'with valid credentials');
      // Which check comes first on a path that does not exist is the target's (info.order-of-checks).
      expectStatus(await kit.send(probe), [404, 401], unknownPathMethods, 'without credentials');
    }
  },
);
