/**
 * The authorization defects (mock/defects/authorization/): the rules each must fail, and its probe.
 */

import { authorization, bearer, call, mint, status, USER, USER_CLAIMS, WRONG } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const AUTHORIZATION = {
  'public-requires-auth': {
    rules: ['success.200.public'],
    probe: async (url) => status(await call(url, 'GET', '/users')),
    conformant: 200,
    defective: 401,
  },
  'missing-credentials-403': {
    rules: ['auth.401.missing'],
    probe: async (url) => status(await call(url, 'GET', '/protected')),
    conformant: 401,
    defective: 403,
  },
  'forbidden-as-401': {
    rules: ['authz.403.lacking-role', 'authz.403.lacking-scope'],
    probe: async (url) => status(await call(url, 'GET', '/admin', { headers: bearer(USER.bearer) })),
    conformant: 403,
    defective: 401,
  },
  'admin-open-to-users': {
    rules: ['authz.403.lacking-role'],
    // The user reaches the admin path on its spellings too (`/admin?`), which the path-spelling rule sees.
    collateral: ['path.spelling.refused'],
    probe: async (url) => status(await call(url, 'GET', '/admin', { headers: bearer(USER.bearer) })),
    conformant: 403,
    defective: 200,
  },
  'apikey-skips-authorization': {
    rules: ['authz.403.lacking-scope', 'authz.403.reauth-other-scheme'],
    probe: async (url) =>
      status(
        await call(url, 'DELETE', '/users/no-such-id', {
          headers: { authorization: authorization(USER, 'apikey') },
        }),
      ),
    conformant: 403,
    defective: 404,
  },
  'jwt-cache-skips-authorization': {
    rules: ['authz.403.reauth-same'],
    // method.head.refused sends the user's token to GET then HEAD: the second one, from the cache, gets 200.
    collateral: ['method.head.refused'],
    probe: async (url) => {
      const token = await mint(USER_CLAIMS);
      const first = status(await call(url, 'GET', '/admin', { headers: bearer(token) }));
      const second = status(await call(url, 'GET', '/admin', { headers: bearer(token) }));
      return [first, second];
    },
    conformant: [403, 403],
    defective: [403, 200],
  },
  'head-unauthenticated': {
    rules: ['method.head.refused'],
    probe: async (url) => status(await call(url, 'HEAD', '/admin')),
    conformant: 401,
    defective: 200,
  },
  'store-before-auth': {
    rules: ['refusal.no-effect'],
    probe: async (url) => {
      const name = `store-before-auth-${Date.now()}`;
      const refused = await call(url, 'POST', '/users', {
        headers: { authorization: WRONG.basic, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      const listing = await call(url, 'GET', '/users');
      return `${refused.status} ${listing.text.includes(name) ? 'stored' : 'not stored'}`;
    },
    conformant: '401 not stored',
    defective: '401 stored',
  },
  'refusal-carries-resource': {
    rules: ['refusal.no-resource', 'observed.refusal.no-resource'],
    probe: async (url) => {
      const answer = await call(url, 'GET', '/admin');
      return `${answer.status} ${answer.text.includes('admin resource') ? 'with the resource' : 'without it'}`;
    },
    conformant: '401 without it',
    defective: '401 with the resource',
  },
  'query-token-decoded': {
    rules: ['auth.credential.other-places'],
    // A user's token raised to the admin's claims, not re-signed, in the query of the admin path.
    probe: async (url) => {
      const [header, payload, signature] = USER.bearer.split('.');
      const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8')) as object;
      const raised = Buffer.from(JSON.stringify({ ...claims, roles: ['admin'] })).toString('base64url');
      return status(await call(url, 'GET', `/admin?access_token=${header}.${raised}.${signature}`));
    },
    conformant: 401,
    defective: 200,
  },
} satisfies Expectations;
