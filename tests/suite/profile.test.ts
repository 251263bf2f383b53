/** Profile loading: the bundled profile is valid; a bad one is refused with one line naming the field. */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { checkJwtMaterial } from '../../specs/lib/tokens.ts';
import {
  DEFAULT_PROFILE_PATH,
  loadProfile,
  PROFILE_CHECKED_ENV,
  ProfileError,
  parseProfile,
  profileDigest,
  readProfile,
} from '../../specs/profile/load.ts';
import { rateLimitList } from '../../specs/profile/rate-policy.ts';
import { resolveRunTarget } from '../../specs/profile/resolve.ts';

const mockProfile = JSON.parse(readFileSync(DEFAULT_PROFILE_PATH, 'utf8')) as Record<string, unknown>;

// biome-ignore lint/suspicious/noExplicitAny: test data is edited freely; the validator is what is tested.
type Editable = Record<string, any>;

/** The mock's profile with one change applied. */
function variant(change: (p: Editable) => void): unknown {
  const copy = structuredClone(mockProfile) as Editable;
  change(copy);
  return copy;
}

function messageFor(data: unknown): string {
  try {
    parseProfile(data);
  } catch (e) {
    expect(e).toBeInstanceOf(ProfileError);
    const message = (e as Error).message;
    expect(message, 'one line').not.toContain('\n');
    expect((e as Error).stack, 'no stack trace for a user mistake').toBe(`ProfileError: ${message}`);
    return message;
  }
  throw new Error('profile was accepted');
}

test("the bundled mock's profile is valid", () => {
  const profile = loadProfile(DEFAULT_PROFILE_PATH);
  expect(profile.name).toBeTruthy();
  expect(profile.endpoints.admin?.schemes).toContain('bearer');
});

test('each kind of mistake names the field and what is expected', () => {
  const cases: [unknown, string][] = [
    [
      variant((p) => {
        p.endpoints.admin.schemes = ['digest'];
      }),
      'profile: /endpoints/admin/schemes/0 must be one of bearer, basic, apikey',
    ],
    [
      variant((p) => {
        p.colour = 'blue';
      }),
      'profile: /colour is not a known field',
    ],
    [
      variant((p) => {
        p.endpoints.protected.verb = 'GET';
      }),
      'profile: /endpoints/protected/verb is not a known field',
    ],
    [
      variant((p) => {
        delete p.name;
      }),
      'profile: /name is required',
    ],
    [
      variant((p) => {
        p.budget = { concurrency: 'many' };
      }),
      'profile: /budget/concurrency must be integer',
    ],
    [
      variant((p) => {
        p.endpoints.missing.path = 'no-slash';
      }),
      'profile: /endpoints/missing/path must match ^/[^\\s]*$',
    ],
    [
      variant((p) => {
        p.baseUrl = 'ftp://example.test';
      }),
      'profile: /baseUrl must match',
    ],
    [
      variant((p) => {
        p.rateLimit = { limit: 0, windowSeconds: 1 };
      }),
      'profile: /rateLimit/limit must be >= 1',
    ],
    [
      variant((p) => {
        p.rateLimit = [
          { limit: 3, windowSeconds: 1 },
          { limit: 100, windowSeconds: 60, appliesTo: 'sometimes' },
        ];
      }),
      'profile: /rateLimit/1/appliesTo must be one of all, endpoint, anonymous, authenticated',
    ],
    [
      variant((p) => {
        delete p.jwt.privateJwk;
      }),
      'profile: /jwt/privateJwk is required for alg RS256',
    ],
    [
      variant((p) => {
        p.jwt = { alg: 'HS256' };
      }),
      'profile: /jwt/secret is required for alg HS256',
    ],
    [
      variant((p) => {
        p.identities.user.basic.username = 'a:b';
      }),
      'profile: /identities/user/basic/username must not contain ":"',
    ],
    [
      variant((p) => {
        p.identities.auditor = {};
      }),
      'profile: /identities/auditor is not a known field',
    ],
    [[], 'profile: / must be object'],
  ];
  for (const [data, expected] of cases) expect(messageFor(data)).toContain(expected);
});

test('a message never repeats a value from the profile (it may be a credential)', () => {
  const message = messageFor(
    variant((p) => {
      p.identities.admin.apikey = 42;
    }),
  );
  expect(message).toBe(
    'profile: /identities/admin/apikey must be a non-empty string or { "env": "VARIABLE_NAME" }',
  );
});

test('an unreadable or non-JSON file is refused the same way', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-profile-'));
  try {
    expect(() => loadProfile(join(dir, 'absent.json'))).toThrow(
      /^profile: .*absent\.json does not exist \(ENOENT\): no profile file there; `gatecheck init` writes one$/,
    );
    await writeFile(join(dir, 'broken.json'), '{ "name": ');
    expect(() => loadProfile(join(dir, 'broken.json'))).toThrow(/broken\.json is not valid JSON/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('target resolution: bundled mock by default, BASE_URL needs a profile, a profile may carry the URL', async () => {
  expect(resolveRunTarget({}).baseUrl).toBeUndefined();
  expect(resolveRunTarget({}).profilePath).toBe(DEFAULT_PROFILE_PATH);
  expect(() => resolveRunTarget({ BASE_URL: 'http://example.test' })).toThrow(
    /GATECHECK_PROFILE is required when BASE_URL is set/,
  );
  expect(() =>
    resolveRunTarget({ BASE_URL: 'example.test', GATECHECK_PROFILE: DEFAULT_PROFILE_PATH }),
  ).toThrow(/BASE_URL must be an http/);
  expect(
    resolveRunTarget({
      BASE_URL: 'https://staging.example.test/api',
      GATECHECK_PROFILE: DEFAULT_PROFILE_PATH,
    }).baseUrl,
  ).toBe('https://staging.example.test/api');
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-profile-'));
  try {
    const file = join(dir, 'staging.json');
    await writeFile(
      file,
      JSON.stringify(
        variant((p) => {
          p.baseUrl = 'https://staging.example.test';
        }),
      ),
    );
    expect(resolveRunTarget({ GATECHECK_PROFILE: file }).baseUrl).toBe('https://staging.example.test');
    // The bundled profile always means the embedded mock, whatever baseUrl it carries.
    expect(resolveRunTarget({}).baseUrl).toBeUndefined();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the complete example in docs/profile.md is a valid profile', () => {
  const doc = readFileSync(new URL('../../docs/profile.md', import.meta.url), 'utf8');
  const example = /## A complete example[\s\S]*?```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
  expect(example, 'docs/profile.md has a ```json example under "A complete example"').toBeDefined();
  const profile = parseProfile(JSON.parse(example ?? ''));
  expect(profile.endpoints.admin?.schemes).toEqual(['bearer']);
  expect(rateLimitList(profile)[0]?.identity).toBe('ratelimit');
});

test('rateLimit may be a list of limits, each with routes, appliesTo and a name', () => {
  const base = JSON.parse(readFileSync(new URL('../../fixtures/mock.profile.json', import.meta.url), 'utf8'));
  const profile = parseProfile({
    ...base,
    rateLimit: [
      { name: 'anon', limit: 20, windowSeconds: 60, key: 'address', appliesTo: 'anonymous' },
      { name: 'user', limit: 60, windowSeconds: 60, key: 'identity', appliesTo: 'authenticated' },
      { name: 'login', limit: 5, windowSeconds: 60, key: 'address', routes: ['/login', '/users/{id}'] },
    ],
  });
  expect(rateLimitList(profile).map((e) => e.name)).toEqual(['anon', 'user', 'login']);
});

test('signing material that does not fit its algorithm is refused before any request', async () => {
  const base = loadProfile(DEFAULT_PROFILE_PATH);
  await expect(checkJwtMaterial(base.jwt)).resolves.toBeUndefined();
  const { d: _d, ...publicOnly } = (base.jwt?.privateJwk ?? {}) as Record<string, unknown>;
  await expect(checkJwtMaterial({ ...base.jwt, alg: 'RS256', privateJwk: publicOnly })).rejects.toThrow(
    /^profile: \/jwt\/privateJwk cannot be used to sign RS256/,
  );
  await expect(checkJwtMaterial({ ...base.jwt, alg: 'ES256' })).rejects.toThrow(
    /^profile: \/jwt\/privateJwk cannot be used to sign ES256/,
  );
});

test('a profile another process of the run validated is not schema-checked again, and only that exact text', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-profile-'));
  try {
    // Valid JSON the schema refuses (an unknown field): only the schema check can refuse it.
    const text = JSON.stringify(variant((p) => (p.unknownField = true)));
    const path = join(dir, 'p.json');
    await writeFile(path, text);
    expect(() => loadProfile(path, {})).toThrow('profile: /unknownField is not a known field');
    const marked = { [PROFILE_CHECKED_ENV]: profileDigest(text) };
    // The same text, marked as validated: its schema check is not repeated.
    expect(loadProfile(path, marked).name).toBe(mockProfile.name);
    // Another text under the same mark is validated as always.
    await writeFile(path, `${text} `);
    expect(() => loadProfile(path, marked)).toThrow('profile: /unknownField is not a known field');
    // The semantic checks still run on a marked text (RFC 7617 §2: no colon in a user-id).
    const colon = JSON.stringify(variant((p) => (p.identities.user.basic.username = 'a:b')));
    await writeFile(path, colon);
    expect(() => loadProfile(path, { [PROFILE_CHECKED_ENV]: profileDigest(colon) })).toThrow(
      'must not contain ":"',
    );
    // readProfile gives the digest a run passes on.
    const valid = JSON.stringify(mockProfile);
    await writeFile(path, valid);
    expect(readProfile(path, {}).digest).toBe(profileDigest(valid));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
