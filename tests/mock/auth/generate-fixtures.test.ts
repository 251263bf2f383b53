/**
 * scripts/generate-fixtures.ts, run into a temporary folder: the files it writes work together (every
 * credential in the profile authenticates against the generated JWKS and identities), and an existing
 * profile keeps every section but `identities` and `jwt`.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { importJWK, type JWK, jwtVerify } from 'jose';
import { createAuthenticator } from '../../../mock/auth/authenticator.ts';
import type { Scheme } from '../../../mock/auth/types.ts';
import type { Profile } from '../../../specs/profile/types.ts';
import { SETTINGS } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];

async function generate(dir: string): Promise<void> {
  await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/tsx'),
    [join(ROOT, 'scripts/generate-fixtures.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, GATECHECK_FIXTURES_DIR: dir },
    },
  );
}

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(path, 'utf8')) as T;

test.describe.configure({ mode: 'serial' });

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gatecheck-fixtures-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a fresh folder → JWKS, identities and a default profile whose credentials all authenticate', async () => {
  await generate(dir);
  const jwks = await readJson<{ keys: JWK[] }>(join(dir, 'keys/jwks.json'));
  expect(jwks.keys.map((key) => [key.alg, key.use, typeof key.kid])).toEqual([
    ['RS256', 'sig', 'string'],
    ['ES256', 'sig', 'string'],
  ]);
  for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
  const privates = await readJson<{ keys: JWK[] }>(join(dir, 'keys/private.jwks.json'));
  expect(privates.keys.map((key) => [key.kid, typeof key.d])).toEqual(
    jwks.keys.map((key) => [key.kid, 'string']),
  );

  const profile = await readJson<Profile>(join(dir, 'mock.profile.json'));
  expect(profile.name).toBe('gatecheck mock');
  // The file the mock's banner names for GATECHECK_JWT_PRIVATE_JWK: the profile's signing key, alone.
  expect(await readJson<JWK>(join(dir, 'keys/issuer.private.jwk.json'))).toEqual(profile.jwt?.privateJwk);
  expect(profile.endpoints).toMatchObject({
    public: { path: '/users' },
    protected: { path: '/protected', schemes: ['bearer', 'basic'] },
    admin: { path: '/admin', schemes: ['bearer'] },
    missing: { path: '/gatecheck-no-such-path' },
    collection: { path: '/users', writeSchemes: ['bearer', 'basic', 'apikey'], writer: 'admin' },
    methodNotAllowed: { path: '/protected', method: 'DELETE' },
  });
  expect(profile.budget).toEqual({ concurrency: 16, timeoutMs: 5000 });
  expect(profile.jwt).toMatchObject({ alg: 'RS256', issuer: SETTINGS.issuer, audience: SETTINGS.audience });

  const auth = await createAuthenticator({
    ...SETTINGS,
    jwksPath: join(dir, 'keys/jwks.json'),
    identitiesPath: join(dir, 'identities.json'),
  });
  const now = Date.now();
  const expected = {
    admin: ['alice', 'admin'],
    user: ['bob', 'user'],
    ratelimit: ['carol', 'user'],
  } as const;
  for (const [role, [id, mainRole]] of Object.entries(expected)) {
    const credentials = profile.identities[role as keyof typeof expected];
    if (
      credentials?.bearer === undefined ||
      credentials.basic === undefined ||
      credentials.apikey === undefined
    ) {
      throw new Error(`profile lacks credentials for ${role}`);
    }
    const userPass = Buffer.from(`${credentials.basic.username}:${credentials.basic.password}`).toString(
      'base64',
    );
    for (const value of [
      `Bearer ${credentials.bearer}`,
      `Basic ${userPass}`,
      `Apikey ${credentials.apikey}`,
    ]) {
      const result = await auth.authenticate([value], ALL, now);
      expect(result, value.split(' ')[0]).toMatchObject({ ok: true, identity: { id, roles: [mainRole] } });
    }
    expect(credentials.jwtClaims).toMatchObject({ sub: id, roles: [mainRole] });
    // The demo token lives ten years (test-only).
    const { payload } = await jwtVerify(credentials.bearer, await importJWK(jwks.keys[0] as JWK, 'RS256'));
    expect((payload.exp as number) - (payload.iat as number)).toBeGreaterThanOrEqual(10 * 365 * 24 * 3600);
  }
  expect(profile.identities.user?.basic?.password).toMatch(/:.*[^\x20-\x7e]|[^\x20-\x7e].*:/);
});

test('an existing profile → only identities and jwt are replaced; other sections are kept as they are', async () => {
  const custom = {
    name: 'my mock',
    endpoints: { public: { path: '/things' } },
    identities: { admin: { apikey: 'stale' } },
    rateLimit: { limit: 5, windowSeconds: 1 },
    fault: { path: '/__fault' },
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'mock.profile.json'), JSON.stringify(custom));
  await generate(dir);
  const profile = await readJson<Profile>(join(dir, 'mock.profile.json'));
  expect(profile).toMatchObject({
    name: 'my mock',
    endpoints: { public: { path: '/things' } },
    rateLimit: custom.rateLimit,
    fault: custom.fault,
  });
  expect(profile.endpoints.admin).toBeUndefined();
  expect(profile.identities.admin?.apikey).not.toBe('stale');
  expect(profile.jwt?.privateJwk).toBeDefined();
});
