/**
 * The credentials defects (mock/defects/credentials/): the rules each must fail, and its probe.
 */

import { ADMIN, authorization, call, status, USER } from './probe-support.ts';

const basic = (username: string, password: string): { authorization: string } => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
});
const apikey = (key: string): { authorization: string } => ({ authorization: `Apikey ${key}` });
/** An authenticated write on an id that does not exist: 404 once the key is taken, 401 while refused. */
const deleteMissing = async (url: string, headers: Record<string, string>): Promise<number> =>
  status(await call(url, 'DELETE', '/users/no-such-id', { headers }));

/** Every boundary rule a Basic password check that never compares the password fails. */
const BASIC_BOUNDARIES = [
  'auth.boundary.empty-secret',
  'auth.boundary.prefix',
  'auth.boundary.suffix-extended',
  'auth.boundary.one-char-changed',
  'auth.boundary.case-changed',
  'auth.boundary.whitespace',
  'auth.boundary.other-identity-password',
];

import type { Expectations } from './types.ts';

export const CREDENTIALS = {
  'basic-any-password': {
    rules: ['auth.401.invalid-basic'],
    // A token or key sent as the Basic password is any password too (auth.boundary.other-scheme).
    collateral: [
      // A near miss of the password is any password too.
      'basic.user-pass.near-miss',
      'fuzz.wrong-credential.status',
      'fuzz.invalid-credential.no-2xx',
      'auth.boundary.other-scheme',
      ...BASIC_BOUNDARIES,
    ],
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
    collateral: [
      // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
      'observed.no-5xx',
      'basic.base64.strict',
    ],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: 'Basic !!not*base64!!' } })),
    conformant: 400,
    defective: 500,
  },
  'basic-empty-password': {
    rules: ['auth.boundary.empty-secret'],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: basic(ADMIN.basic.username, '') })),
    conformant: 401,
    defective: 200,
  },
  'basic-trims-user-pass': {
    rules: ['auth.boundary.whitespace'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: basic(ADMIN.basic.username, `${ADMIN.basic.password} `),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'basic-password-any-user': {
    rules: ['auth.boundary.other-identity-password'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', { headers: basic(ADMIN.basic.username, USER.basic.password) }),
      ),
    conformant: 401,
    defective: 200,
  },
  'apikey-accepts-prefix': {
    rules: ['auth.boundary.prefix'],
    probe: (url) => deleteMissing(url, apikey(ADMIN.apikey.slice(0, -1))),
    conformant: 401,
    defective: 404,
  },
  'apikey-masked-compare': {
    rules: ['auth.boundary.one-char-changed'],
    // A character replaced inside the hidden middle goes unseen.
    collateral: ['auth.credential.near-miss'],
    probe: (url) => {
      const middle = Math.floor(ADMIN.apikey.length / 2);
      const changed = ADMIN.apikey[middle] === 'A' ? 'B' : 'A';
      return deleteMissing(
        url,
        apikey(`${ADMIN.apikey.slice(0, middle)}${changed}${ADMIN.apikey.slice(middle + 1)}`),
      );
    },
    conformant: 401,
    defective: 404,
  },
  'apikey-case-insensitive': {
    rules: ['auth.boundary.case-changed'],
    probe: (url) => deleteMissing(url, apikey(ADMIN.apikey.toUpperCase())),
    conformant: 401,
    defective: 404,
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
  'basic-token68-lenient-base64': {
    rules: ['basic.base64.strict'],
    // A "." anywhere in the payload: inside token68, outside base64; the shape check passes it.
    probe: async (url) => {
      const valid = Buffer.from(`${ADMIN.basic.username}:${ADMIN.basic.password}`).toString('base64');
      const mangled = `${valid.slice(0, 3)}.${valid.slice(3)}`;
      return status(await call(url, 'GET', '/protected', { headers: { authorization: `Basic ${mangled}` } }));
    },
    conformant: 400,
    defective: 200,
  },
  'basic-user-id-like-wildcard': {
    rules: ['basic.user-pass.near-miss'],
    // "%alice" with alice's password: LIKE '%alice' finds alice.
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: basic(`%${ADMIN.basic.username}`, ADMIN.basic.password),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'basic-password-first-letter-case': {
    rules: ['basic.user-pass.near-miss'],
    probe: async (url) => {
      const { username, password } = ADMIN.basic;
      const first = password.charAt(0);
      const toggled = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
      return status(
        await call(url, 'GET', '/protected', { headers: basic(username, `${toggled}${password.slice(1)}`) }),
      );
    },
    conformant: 401,
    defective: 200,
  },
  'apikey-as-bearer': {
    rules: ['auth.boundary.other-scheme'],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: `Bearer ${ADMIN.apikey}` } })),
    conformant: 401,
    defective: 200,
  },
  'apikey-sanitized-lookup': {
    rules: ['auth.credential.near-miss'],
    // "~" stripped before the lookup: the key it leaves is the admin's.
    probe: (url) => deleteMissing(url, apikey(`~${ADMIN.apikey}`)),
    conformant: 401,
    defective: 404,
  },
  'apikey-off-by-one': {
    rules: ['auth.401.invalid-apikey'],
    collateral: ['auth.boundary.one-char-changed'],
    probe: (url) => {
      const last = ADMIN.apikey.endsWith('A') ? 'B' : 'A';
      return deleteMissing(url, apikey(`${ADMIN.apikey.slice(0, -1)}${last}`));
    },
    conformant: 401,
    defective: 404,
  },
  'apikey-prefix': {
    rules: ['auth.boundary.suffix-extended'],
    // A character inserted after the key still starts with the key.
    collateral: ['auth.credential.near-miss'],
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
