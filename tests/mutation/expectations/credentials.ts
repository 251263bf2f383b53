/**
 * The credentials defects (mock/defects/credentials/): the rules each must fail, and its probe.
 */

import { ADMIN, authorization, call, status, USER } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const CREDENTIALS = {
  'basic-any-password': {
    rules: ['auth.401.invalid-basic'],
    collateral: ['fuzz.wrong-credential.status', 'fuzz.invalid-credential.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: { authorization: `Basic ${Buffer.from('alice:not-her-password').toString('base64')}` },
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'basic-password-colon': {
    rules: ['success.200.protected'],
    collateral: [
      'authz.403.lacking-scope',
      'authz.403.reauth-other-scheme',
      'fuzz.credential.legal-variants',
    ],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', { headers: { authorization: authorization(USER, 'basic') } }),
      ),
    conformant: 200,
    defective: 401,
  },
  'basic-bad-base64-500': {
    rules: ['auth.malformed.status', 'fuzz.no-5xx', 'fuzz.malformed.status'],
    // A 500 for characters outside base64 is no refusal (400 or 401) either.
    collateral: ['basic.base64.strict'],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: 'Basic !!not*base64!!' } })),
    conformant: 400,
    defective: 500,
  },
  'basic-lenient-base64': {
    rules: ['basic.base64.strict'],
    probe: async (url) => {
      const valid = Buffer.from(`${ADMIN.basic.username}:${ADMIN.basic.password}`).toString('base64');
      const mangled = `${valid.slice(0, 4)}*${valid.slice(4)}`;
      return status(await call(url, 'GET', '/protected', { headers: { authorization: `Basic ${mangled}` } }));
    },
    conformant: 400,
    defective: 200,
  },
  'apikey-prefix': {
    rules: ['auth.401.invalid-apikey'],
    probe: async (url) =>
      status(
        await call(url, 'DELETE', '/users/no-such-id', {
          headers: { authorization: `Apikey ${ADMIN.apikey}x` },
        }),
      ),
    conformant: 401,
    // Authenticated as alice (her key is a prefix of the one sent), so the handler answers.
    defective: 404,
  },
} satisfies Expectations;
