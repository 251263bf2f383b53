/**
 * Bearer JWTs (RFC 6750, RFC 7519) and the attack catalogue of RFC 8725: every forged, altered, expired or
 * misaddressed token → 401 with a jwt_* code; a well-formed token68 that is no JWT → 401, not 400.
 */
import { createPublicKey } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { exportJWK, generateKeyPair } from 'jose';
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import {
  authenticator,
  b64url,
  b64urlJson,
  credentialsOf,
  defaultClaims,
  expectFailure,
  expectIdentity,
  LEEWAY,
  mint,
  NOW,
  NOW_S,
  publicJwk,
  signRaw,
} from './helpers.ts';

const BEARER: readonly Scheme[] = ['bearer'];
let auth: Authenticator;

test.beforeAll(async () => {
  auth = await authenticator();
});

const check = (token: string, now = NOW) => auth.authenticate([`Bearer ${token}`], BEARER, now);

function segments(token: string): [string, string, string] {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) throw new Error('not a JWS');
  return [header, payload, signature];
}

test.describe('valid tokens', () => {
  for (const alg of ['RS256', 'ES256'] as const) {
    test(`${alg} token with roles and scope → identity with those roles and scopes`, async () => {
      const token = await mint({
        alg,
        claims: { sub: 'alice', roles: ['admin'], scope: 'users:read users:write' },
      });
      expect(expectIdentity(await check(token))).toEqual({
        id: 'alice',
        scheme: 'bearer',
        roles: ['admin'],
        scopes: ['users:read', 'users:write'],
      });
    });
  }

  test('the demo tokens in fixtures/mock.profile.json → alice admin, bob user, carol user', async () => {
    expect(expectIdentity(await check(credentialsOf('admin').bearer))).toMatchObject({
      id: 'alice',
      roles: ['admin'],
    });
    expect(expectIdentity(await check(credentialsOf('user').bearer))).toMatchObject({
      id: 'bob',
      roles: ['user'],
      scopes: ['users:read'],
    });
    expect(expectIdentity(await check(credentialsOf('ratelimit').bearer)).id).toBe('carol');
  });

  test('no roles and no scope claims → identity with empty roles and scopes', async () => {
    const token = await mint({ claims: { roles: undefined, scope: undefined } });
    expect(expectIdentity(await check(token))).toMatchObject({ roles: [], scopes: [] });
  });

  test('scope with repeated spaces → split into its tokens (RFC 8693 §4.2)', async () => {
    const token = await mint({ claims: { scope: '  users:read   users:write ' } });
    expect(expectIdentity(await check(token)).scopes).toEqual(['users:read', 'users:write']);
  });

  test('aud as an array containing the audience → accepted (RFC 7519 §4.1.3)', async () => {
    const token = await mint({ claims: { aud: ['someone-else', 'gatecheck-mock'] } });
    expect(expectIdentity(await check(token)).id).toBe('bob');
  });

  test('exp just passed but within the leeway → accepted; nbf just ahead but within the leeway → accepted', async () => {
    expectIdentity(await check(await mint({ claims: { exp: NOW_S - LEEWAY + 2 } })));
    expectIdentity(await check(await mint({ claims: { nbf: NOW_S + LEEWAY - 2 } })));
  });
});

test.describe('alg none and key confusion (RFC 8725 §2.1, §3.1)', () => {
  for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
    for (const signature of ['empty', 'kept'] as const) {
      test(`alg "${alg}" with ${signature} signature → 401 jwt_alg_not_allowed`, async () => {
        const [, payload, original] = segments(await mint());
        const token = `${b64urlJson({ alg, typ: 'JWT' })}.${payload}.${signature === 'empty' ? '' : original}`;
        expectFailure(await check(token), 401, 'jwt_alg_not_allowed', token);
      });
    }
  }

  test('alg none with the original kid header → 401 jwt_alg_not_allowed', async () => {
    const [header, payload] = segments(await mint());
    const forged = { ...JSON.parse(Buffer.from(header, 'base64url').toString()), alg: 'none' };
    expectFailure(await check(`${b64urlJson(forged)}.${payload}.`), 401, 'jwt_alg_not_allowed');
  });

  test('HS256 signed with the RSA public key as HMAC secret (PEM and JWK forms) → 401 jwt_alg_not_allowed', async () => {
    const jwk = publicJwk('RS256');
    const pem = createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    for (const secret of [pem, JSON.stringify(jwk), jwk.n as string]) {
      const token = await mint({ key: new TextEncoder().encode(secret), header: { alg: 'HS256' } });
      expectFailure(await check(token), 401, 'jwt_alg_not_allowed', token);
    }
  });

  test("an allowed alg with the other key type's kid (ES256 header, RS256 key id) → 401", async () => {
    const rsaKid = publicJwk('RS256').kid;
    const token = await mint({ alg: 'ES256', header: { kid: rsaKid } });
    expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
  });
});

test.describe('signature tampering', () => {
  for (const alg of ['RS256', 'ES256'] as const) {
    test(`${alg}: signature stripped (header.payload.) → 401 jwt_signature_invalid`, async () => {
      const [header, payload] = segments(await mint({ alg }));
      expectFailure(await check(`${header}.${payload}.`), 401, 'jwt_signature_invalid');
    });

    test(`${alg}: signature truncated → 401 jwt_signature_invalid`, async () => {
      const [header, payload, signature] = segments(await mint({ alg }));
      const token = `${header}.${payload}.${signature.slice(0, -8)}`;
      expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
    });

    test(`${alg}: one bit of the signature flipped → 401 jwt_signature_invalid`, async () => {
      const [header, payload, signature] = segments(await mint({ alg }));
      const bytes = Buffer.from(signature, 'base64url');
      bytes[10] = (bytes[10] as number) ^ 0x01;
      const token = `${header}.${payload}.${b64url(bytes)}`;
      expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
    });

    test(`${alg}: payload changed (roles → admin) without re-signing → 401 jwt_signature_invalid`, async () => {
      const [header, payload, signature] = segments(await mint({ alg }));
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const token = `${header}.${b64urlJson({ ...claims, roles: ['admin'] })}.${signature}`;
      expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
    });

    test(`${alg}: signed with an unknown key under the trusted kid → 401 jwt_signature_invalid`, async () => {
      const { privateKey } = await generateKeyPair(alg);
      const token = await mint({ alg, key: privateKey });
      expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
    });

    test(`${alg}: signed with an unknown key under an unknown kid → 401 jwt_signature_invalid`, async () => {
      const { privateKey } = await generateKeyPair(alg);
      const token = await mint({ alg, key: privateKey, header: { kid: 'attacker-key' } });
      expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
    });
  }

  test('attacker key embedded in the `jwk` header is ignored (keys come only from the local JWKS) → 401', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const token = await mint({
      key: privateKey,
      header: { kid: 'attacker', jwk: await exportJWK(publicKey) },
    });
    expectFailure(await check(token), 401, 'jwt_signature_invalid', token);
  });
});

test.describe('claims', () => {
  test('expired beyond the leeway → 401 jwt_expired, reason says how long ago', async () => {
    const token = await mint({ claims: { exp: NOW_S - LEEWAY - 12 } });
    const failure = expectFailure(await check(token), 401, 'jwt_expired', token);
    expect(failure.reason).toContain(`${LEEWAY + 12} s ago`);
  });

  test('exp exactly now minus the leeway → 401 jwt_expired (RFC 7519 §4.1.4 "on or after")', async () => {
    expectFailure(await check(await mint({ claims: { exp: NOW_S - LEEWAY } })), 401, 'jwt_expired');
  });

  test('nbf beyond the leeway in the future → 401 jwt_not_yet_valid', async () => {
    const token = await mint({ claims: { nbf: NOW_S + LEEWAY + 60 } });
    expectFailure(await check(token), 401, 'jwt_not_yet_valid', token);
  });

  test('wrong issuer → 401 jwt_claim_invalid naming "iss"', async () => {
    const token = await mint({ claims: { iss: 'https://evil.example/' } });
    expect(expectFailure(await check(token), 401, 'jwt_claim_invalid', token).reason).toContain('"iss"');
  });

  test('missing issuer → 401 jwt_claim_invalid', async () => {
    expectFailure(await check(await mint({ claims: { iss: undefined } })), 401, 'jwt_claim_invalid');
  });

  test('wrong audience → 401 jwt_claim_invalid naming "aud"', async () => {
    const token = await mint({ claims: { aud: 'another-api' } });
    expect(expectFailure(await check(token), 401, 'jwt_claim_invalid', token).reason).toContain('"aud"');
  });

  test('missing exp → 401 jwt_claim_invalid (the mock requires exp, as RFC 9068 §2.2 does)', async () => {
    const token = await mint({ claims: { exp: undefined } });
    expect(expectFailure(await check(token), 401, 'jwt_claim_invalid', token).reason).toContain('"exp"');
  });

  test('exp not a number → 401 jwt_claim_invalid', async () => {
    expectFailure(
      await check(await mint({ claims: { exp: String(NOW_S + 3600) } })),
      401,
      'jwt_claim_invalid',
    );
  });

  test('missing sub → 401 jwt_claim_invalid', async () => {
    expectFailure(await check(await mint({ claims: { sub: undefined } })), 401, 'jwt_claim_invalid');
  });

  for (const [name, value] of [
    ['roles', 'admin'],
    ['roles', [1, 2]],
    ['scope', ['users:read']],
    ['sub', 42],
  ] as const) {
    test(`claim ${name} = ${JSON.stringify(value)} → 401 jwt_claim_invalid`, async () => {
      const token = await mint({ claims: { [name]: value } });
      expect(expectFailure(await check(token), 401, 'jwt_claim_invalid').reason).toContain(`"${name}"`);
    });
  }

  test('unknown extension in crit → 401 jwt_crit_unsupported (RFC 7515 §4.1.11, jose default)', async () => {
    const token = await mint({
      header: { crit: ['x-gatecheck'], 'x-gatecheck': true },
      crit: { 'x-gatecheck': true },
    });
    expectFailure(await check(token), 401, 'jwt_crit_unsupported', token);
  });

  test('crit listing a recognised parameter that is absent (b64) → 401 jwt_crit_unsupported', async () => {
    const token = signRaw({ crit: ['b64'] }, defaultClaims());
    expectFailure(await check(token), 401, 'jwt_crit_unsupported', token);
  });

  test('crit as an empty list → 401 jwt_crit_unsupported (RFC 7515 §4.1.11 MUST NOT be empty)', async () => {
    const token = signRaw({ crit: [] }, defaultClaims());
    expectFailure(await check(token), 401, 'jwt_crit_unsupported', token);
  });

  test('the raw signer is genuine: the same claims without crit → accepted', async () => {
    expect(expectIdentity(await check(signRaw({}, defaultClaims()))).id).toBe('bob');
    expect(expectIdentity(await check(signRaw({}, defaultClaims(), 'ES256'))).id).toBe('bob');
  });

  test('b64:false (unencoded payload) correctly signed → 401 jwt_invalid, never accepted as a JWT', async () => {
    const token = signRaw({ b64: false, crit: ['b64'] }, defaultClaims());
    expectFailure(await check(token), 401, 'jwt_invalid', token);
  });
});

test.describe('well-formed token68 that is not a JWT → 401, not 400', () => {
  const notJwts: Record<string, string> = {
    'one segment': 'abcdef',
    'two segments': 'abc.def',
    'four segments': 'a.b.c.d',
    'an opaque token with / and +': 'mF_9.B5f-4.1JqM+/==',
    'a header that is not JSON': `${b64url('not json')}.${b64urlJson({ sub: 'bob' })}.sig`,
    'a JWE-shaped token': 'a.b.c.d.e',
  };
  for (const [what, token] of Object.entries(notJwts)) {
    test(`${what} → 401 jwt_invalid`, async () => {
      const failure = expectFailure(await check(token), 401, 'jwt_invalid', token);
      expect(failure.scheme).toBe('bearer');
    });
  }
});

test.describe('settings misuse throws TypeError', () => {
  for (const algorithms of [['none'], ['RS256', 'HS256'], ['NONE'], []]) {
    test(`algorithms ${JSON.stringify(algorithms)} → TypeError (RFC 8725 §3.1)`, async () => {
      await expect(authenticator({ algorithms })).rejects.toThrow(TypeError);
    });
  }

  test('a JWKS holding private keys → TypeError', async () => {
    await expect(
      authenticator({
        jwksPath: new URL('../../../fixtures/keys/private.jwks.json', import.meta.url).pathname,
      }),
    ).rejects.toThrow(TypeError);
  });
});
