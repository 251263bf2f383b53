/**
 * The bearer tokens defects (mock/defects/bearer-tokens/): the rules each must fail, and its probe.
 */

import { generateKeyPairSync } from 'node:crypto';
import { type CryptoKey, exportSPKI, importJWK, type JWK, SignJWT } from 'jose';
import {
  ADMIN,
  b64url,
  bearer,
  call,
  claims,
  hs256,
  mint,
  PUBLIC,
  RS256,
  signed,
  status,
  USER_CLAIMS,
} from './probe-support.ts';
import type { Expectations } from './types.ts';

export const BEARER_TOKENS = {
  'alg-none': {
    rules: ['jwt.alg.none', 'jwt.attack.alg-none', 'fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    collateral: ['fuzz.invalid-credential.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(`${b64url({ alg: 'none' })}.${b64url(claims())}.`),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'bearer-fail-open': {
    rules: ['fuzz.invalid-credential.no-2xx', 'fuzz.wrong-credential.status'],
    // Tokens with a stripped signature or a broken structure are the same undecodable input, let through.
    collateral: [
      // A token changed at any position is any token too.
      'auth.credential.near-miss',
      'fuzz.jwt.mutation.no-2xx',
      'fuzz.malformed.status',
      'fuzz.bearer.error-code',
      'jwt.attack.signature',
      'jwt.attack.structure',
      'auth.boundary.prefix',
      'auth.boundary.suffix-extended',
      'auth.boundary.one-char-changed',
      'auth.boundary.case-changed',
      // A key or a password sent as a Bearer token is undecodable input too (auth.boundary.other-scheme).
      'auth.boundary.other-scheme',
    ],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: 'Bearer not-a-jwt-at-all' } })),
    conformant: 401,
    defective: 200,
  },
  'jwt-signature-lenient-base64url': {
    rules: ['auth.credential.near-miss'],
    // "~" inside the signature: skipped by the lenient decoder.
    probe: async (url) => {
      const [header, payload, signature = ''] = ADMIN.bearer.split('.');
      const mangled = `${header}.${payload}.${signature.slice(0, 5)}~${signature.slice(5)}`;
      return status(await call(url, 'GET', '/protected', { headers: bearer(mangled) }));
    },
    conformant: 401,
    defective: 200,
  },
  'jwt-skip-signature': {
    rules: ['auth.401.invalid-bearer', 'jwt.attack.signature', 'jwt.attack.payload-tamper'],
    // jwt.decode() never looks at the protected header, so `crit` goes unread too (jwt.claims.crit-unknown).
    collateral: [
      // A signature changed at any position goes unchecked.
      'auth.credential.near-miss',
      'jwt.alg.none',
      'jwt.alg.key-confusion',
      'jwt.attack.alg-none',
      'jwt.attack.key-confusion',
      'jwt.attack.ecdsa-zero-signature',
      'jwt.attack.kid-injection',
      'jwt.attack.embedded-key',
      'jwt.attack.structure',
      'fuzz.jwt.mutation.no-2xx',
      'fuzz.jwt.escalation.no-2xx',
      'fuzz.invalid-credential.no-2xx',
      'fuzz.wrong-credential.status',
      'jwt.claims.crit-unknown',
      'auth.boundary.prefix',
      'auth.boundary.suffix-extended',
      'auth.boundary.one-char-changed',
    ],
    probe: async (url) => {
      const [h, p] = (await mint(USER_CLAIMS)).split('.');
      return status(
        await call(url, 'GET', '/protected', { headers: bearer(`${h}.${p}.${b64url('not a signature')}`) }),
      );
    },
    conformant: 401,
    defective: 200,
  },
  'jwt-key-confusion': {
    rules: ['jwt.alg.key-confusion', 'jwt.attack.key-confusion'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    probe: async (url) => {
      const pub = PUBLIC.keys.find((k) => k.alg === 'RS256') as JWK;
      // The classic attack keys HMAC with the public key's PEM text (jose's exportSPKI, as the suite does).
      const pem = await exportSPKI((await importJWK(pub, 'RS256', { extractable: true })) as CryptoKey);
      return status(
        await call(url, 'GET', '/protected', { headers: bearer(hs256({ kid: RS256.kid }, claims(), pem)) }),
      );
    },
    conformant: 401,
    defective: 200,
  },
  'ecdsa-zero-signature': {
    rules: ['jwt.attack.ecdsa-zero-signature'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(
            `${b64url({ alg: 'ES256', typ: 'JWT' })}.${b64url(claims())}.${Buffer.alloc(64).toString('base64url')}`,
          ),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-kid-empty-secret': {
    rules: ['jwt.attack.kid-injection'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(hs256({ kid: '../../../../../../dev/null' }, claims(), '')),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-kid-file-path': {
    // One pair of the kid-injection catalogue shows it (the traversal to /dev/null, MAC'd with ""): caught on
    // every seed since the catalogue is sent whole (specs/fuzz/engine/whole.ts).
    rules: ['jwt.attack.kid-injection'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(hs256({ kid: '../../../../../../../../dev/null' }, claims(), '')),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-header-not-object-500': {
    // No check looks for a 5xx to a header that is JSON but no object: jwt.attack.structure asks only "never
    // 2xx" of it, and a 500 is no 2xx. The observer of every 5xx is what catches it.
    rules: ['observed.no-5xx'],
    // fuzz.no-5xx draws broken structures among its mutated tokens, now and then one of these headers.
    collateral: ['fuzz.no-5xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(`${b64url('"JWT"')}.${b64url(claims())}.c2lnbmF0dXJl`),
        }),
      ),
    conformant: 401,
    defective: 500,
  },
  'jwt-embedded-key': {
    rules: ['jwt.attack.embedded-key'],
    collateral: ['fuzz.jwt.mutation.no-2xx', 'fuzz.jwt.escalation.no-2xx'],
    probe: async (url) => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', jwk }).sign(privateKey);
      return status(await call(url, 'GET', '/protected', { headers: bearer(token) }));
    },
    conformant: 401,
    defective: 200,
  },
  'jwt-lenient-structure': {
    rules: ['jwt.attack.structure'],
    collateral: [
      // Stray characters in the header or payload are skipped.
      'auth.credential.near-miss',
      'fuzz.jwt.mutation.no-2xx',
    ],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: bearer(`${await mint(USER_CLAIMS)}.AAAA`) })),
    conformant: 401,
    defective: 200,
  },
  'jwt-accept-expired': {
    rules: ['jwt.claims.exp'],
    collateral: ['jwt.claims.wrong-type', 'fuzz.jwt.mutation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(await mint(USER_CLAIMS, { expiresIn: -3600 })),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-ignore-nbf': {
    rules: ['jwt.claims.nbf'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(await mint(USER_CLAIMS, { notBefore: 3600, expiresIn: 7200 })),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-ignore-aud': {
    rules: ['jwt.claims.aud', 'jwt.attack.missing-iss-aud'],
    collateral: ['jwt.claims.wrong-type', 'fuzz.jwt.mutation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(await mint({ ...USER_CLAIMS, aud: 'another-service' })),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-ignore-iss': {
    rules: ['jwt.claims.iss', 'jwt.attack.missing-iss-aud'],
    collateral: ['jwt.claims.wrong-type', 'fuzz.jwt.mutation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(await mint({ ...USER_CLAIMS, iss: 'https://issuer.example.test/' })),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-iss-aud-optional': {
    rules: ['jwt.attack.missing-iss-aud'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(await mint({ ...USER_CLAIMS, aud: undefined })),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-ignore-crit': {
    rules: ['jwt.claims.crit-unknown'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
    probe: async (url) => {
      const token = await signed({ crit: ['urn:example:unknown'], 'urn:example:unknown': true }, claims());
      return status(await call(url, 'GET', '/protected', { headers: bearer(token) }));
    },
    conformant: 401,
    defective: 200,
  },
  'jwt-exp-coerced': {
    rules: ['jwt.claims.wrong-type'],
    collateral: ['fuzz.jwt.mutation.no-2xx'],
    probe: async (url) => {
      const exp = String(Math.floor(Date.now() / 1000) + 600);
      return status(
        await call(url, 'GET', '/protected', { headers: bearer(await signed({}, claims({ exp }))) }),
      );
    },
    conformant: 401,
    defective: 200,
  },
  'jwt-exp-milliseconds': {
    rules: ['jwt.claims.valid-accepted', 'auth.401.then-valid', 'success.200.protected', 'success.200.admin'],
    // The profile's fault trigger carries the admin's Bearer token, refused before the fault stage (server.500.fault).
    collateral: [
      'success.200.post',
      'authz.403.lacking-role',
      'authz.403.lacking-scope',
      'server.500.fault',
      'access.403.unblocked-served',
      'request.400.body-not-json',
      'request.400.body-wrong-type',
      'request.400.content-type-mismatch',
      'request.400.oversized-body',
    ],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: bearer(await mint(USER_CLAIMS)) })),
    conformant: 200,
    defective: 401,
  },
  'jwt-roles-ignored': {
    rules: ['success.200.admin'],
    probe: async (url) => status(await call(url, 'GET', '/admin', { headers: bearer(ADMIN.bearer) })),
    conformant: 200,
    defective: 403,
  },
} satisfies Expectations;
