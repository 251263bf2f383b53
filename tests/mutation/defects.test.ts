/**
 * Each defect mode really changes what the mock does (issue 7, step 1): one small HTTP probe per defect,
 * sent to a conformant mock and to a mock with only that defect on; the answers must be the conformant one
 * and the broken one respectively. Fast: no suite run (the mutation score is tests/mutation/score.test.ts).
 * Also: the registry is consistent with the rule catalogue, the config schema and the CLI.
 */
import { execFile } from 'node:child_process';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { type CryptoKey, exportSPKI, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import {
  DEFECT_NAMES,
  DEFECTS,
  type DefectName,
  type DefectSpec,
  UNPROVEN,
} from '../../mock/defects/registry.ts';
import { type RunningMock, type StartOptions, startMock } from '../../mock/server.ts';
import { catalogue } from '../../specs/rules/catalogue.ts';
import {
  ADMIN,
  type Answer,
  AUDIENCE,
  authorization,
  b64url,
  call,
  fixture,
  ISSUER,
  mint,
  PROFILE,
  PUBLIC,
  USER,
} from '../mock/mock-support.ts';

const PRIVATE = JSON.parse(readFileSync(fixture('keys/private.jwks.json'), 'utf8')) as { keys: JWK[] };
const RS256 = PRIVATE.keys.find((k) => k.alg === 'RS256') as JWK;
const CAROL = PROFILE.identities.ratelimit as { bearer: string };
const USER_CLAIMS = { sub: 'bob', roles: ['user'], scope: 'users:read' };

/** Claims of a valid user token (iss, aud, iat, exp), for tokens built by hand. */
function claims(extra: Record<string, unknown> = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600, ...USER_CLAIMS, ...extra };
}

async function signed(header: Record<string, unknown>, payload: JWTPayload): Promise<string> {
  const crit = Array.isArray(header.crit)
    ? Object.fromEntries((header.crit as string[]).map((n) => [n, true]))
    : undefined;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: RS256.kid as string, ...header })
    .sign(await importJWK(RS256, 'RS256'), crit ? { crit } : undefined);
}

function hs256(header: Record<string, unknown>, payload: JWTPayload, secret: string): string {
  const input = `${b64url({ alg: 'HS256', typ: 'JWT', ...header })}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });
const status = (answer: Answer): number => answer.status;
const firstChallenge = (answer: Answer): string => answer.all('www-authenticate')[0] ?? '(none)';

/**
 * A probe turns a mock into one observable value; the conformant mock and the defective one must give
 * `conformant` and `defective`. `options` (both mocks) set what the defect needs, e.g. a small rate limit.
 */
interface Probe {
  readonly probe: (url: string, clock: FakeClock) => Promise<unknown>;
  readonly conformant: unknown;
  readonly defective: unknown;
  readonly options?: StartOptions;
}

interface FakeClock {
  now: number;
}

const LIMIT_3 = {
  rateLimit: { groups: { default: { limit: 3, windowSeconds: 60, banAfter: 100 } } },
} as const;

/** Sends the rate-limit identity's GET /protected `n` times; the statuses. */
async function burst(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push(status(await call(url, 'GET', '/protected', { headers: bearer(CAROL.bearer) })));
  return out;
}

const PROBES: Readonly<Record<DefectName, Probe>> = {
  // header parsing
  'scheme-case-sensitive': {
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: `bearer ${ADMIN.bearer}` } })),
    conformant: 200,
    defective: 401,
  },
  'scheme-single-space': {
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: `Bearer  ${ADMIN.bearer}` } })),
    conformant: 200,
    defective: 400,
  },
  'duplicate-authorization-first-wins': {
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: { authorization: [authorization(ADMIN, 'bearer'), authorization(ADMIN, 'basic')] },
        }),
      ),
    conformant: 400,
    defective: 200,
  },
  'scheme-not-enforced': {
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', { headers: { authorization: authorization(ADMIN, 'apikey') } }),
      ),
    conformant: 401,
    defective: 200,
  },
  // credentials
  'basic-any-password': {
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
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', { headers: { authorization: authorization(USER, 'basic') } }),
      ),
    conformant: 200,
    defective: 401,
  },
  'basic-bad-base64-500': {
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: 'Basic !!not*base64!!' } })),
    conformant: 400,
    defective: 500,
  },
  'apikey-prefix': {
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
  // bearer tokens
  'alg-none': {
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
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: 'Bearer not-a-jwt-at-all' } })),
    conformant: 401,
    defective: 200,
  },
  'jwt-skip-signature': {
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
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: bearer(hs256({ kid: '../../../../../../dev/null' }, claims(), '')),
        }),
      ),
    conformant: 401,
    defective: 200,
  },
  'jwt-embedded-key': {
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
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: bearer(`${await mint(USER_CLAIMS)}.AAAA`) })),
    conformant: 401,
    defective: 200,
  },
  'jwt-accept-expired': {
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
    probe: async (url) => {
      const token = await signed({ crit: ['urn:example:unknown'], 'urn:example:unknown': true }, claims());
      return status(await call(url, 'GET', '/protected', { headers: bearer(token) }));
    },
    conformant: 401,
    defective: 200,
  },
  'jwt-exp-milliseconds': {
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: bearer(await mint(USER_CLAIMS)) })),
    conformant: 200,
    defective: 401,
  },
  'jwt-roles-ignored': {
    probe: async (url) => status(await call(url, 'GET', '/admin', { headers: bearer(ADMIN.bearer) })),
    conformant: 200,
    defective: 403,
  },
  // challenges
  'no-www-authenticate': {
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate').length,
    conformant: 2,
    defective: 0,
  },
  'single-challenge': {
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate').length,
    conformant: 2,
    defective: 1,
  },
  'realm-unquoted': {
    probe: async (url) => firstChallenge(await call(url, 'GET', '/protected')),
    conformant: 'Bearer realm="gatecheck"',
    defective: 'Bearer realm=gatecheck',
  },
  'basic-challenge-bare': {
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate')[1],
    conformant: 'Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic',
  },
  'basic-charset-latin1': {
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate')[1],
    conformant: 'Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic realm="gatecheck", charset="ISO-8859-1"',
  },
  'bearer-error-on-missing': {
    probe: async (url) => firstChallenge(await call(url, 'GET', '/protected')).includes('error='),
    conformant: false,
    defective: true,
  },
  'bearer-no-error-code': {
    probe: async (url) =>
      firstChallenge(
        await call(url, 'GET', '/protected', { headers: bearer(`${await mint(USER_CLAIMS)}x`) }),
      ).includes('error="invalid_token"'),
    conformant: true,
    defective: false,
  },
  'bearer-error-wrong-status': {
    probe: async (url) => {
      const answer = await call(url, 'GET', '/protected', { headers: { authorization: 'Bearer a b' } });
      return `${answer.status} ${/error="([^"]*)"/.exec(firstChallenge(answer))?.[1]}`;
    },
    conformant: '400 invalid_request',
    defective: '400 invalid_token',
  },
  'insufficient-scope-no-challenge': {
    probe: async (url) =>
      (await call(url, 'GET', '/admin', { headers: bearer(USER.bearer) })).all('www-authenticate').length,
    conformant: 1,
    defective: 0,
  },
  // authorization
  'missing-credentials-403': {
    probe: async (url) => status(await call(url, 'GET', '/protected')),
    conformant: 401,
    defective: 403,
  },
  'forbidden-as-401': {
    probe: async (url) => status(await call(url, 'GET', '/admin', { headers: bearer(USER.bearer) })),
    conformant: 403,
    defective: 401,
  },
  'admin-open-to-users': {
    probe: async (url) => status(await call(url, 'GET', '/admin', { headers: bearer(USER.bearer) })),
    conformant: 403,
    defective: 200,
  },
  'apikey-skips-authorization': {
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
    probe: async (url) => {
      const token = await mint(USER_CLAIMS);
      const first = status(await call(url, 'GET', '/admin', { headers: bearer(token) }));
      const second = status(await call(url, 'GET', '/admin', { headers: bearer(token) }));
      return [first, second];
    },
    conformant: [403, 403],
    defective: [403, 200],
  },
  'public-requires-auth': {
    probe: async (url) => status(await call(url, 'GET', '/users')),
    conformant: 200,
    defective: 401,
  },
  // routing
  'unknown-path-403': {
    probe: async (url) => status(await call(url, 'GET', '/no-such-path', { headers: bearer(ADMIN.bearer) })),
    conformant: 404,
    defective: 403,
  },
  'unknown-id-200-null': {
    probe: async (url) => {
      const answer = await call(url, 'GET', '/users/no-such-id');
      return `${answer.status} ${answer.text.slice(0, 4)}`;
    },
    conformant: '404 {"ty',
    defective: '200 null',
  },
  'method-404': {
    probe: async (url) => status(await call(url, 'DELETE', '/protected', { headers: bearer(ADMIN.bearer) })),
    conformant: 405,
    defective: 404,
  },
  'method-no-allow': {
    probe: async (url) =>
      (await call(url, 'DELETE', '/protected', { headers: bearer(ADMIN.bearer) })).header('allow') ??
      '(none)',
    conformant: 'GET, HEAD, OPTIONS',
    defective: '(none)',
  },
  'allow-lists-all-methods': {
    probe: async (url) =>
      (await call(url, 'DELETE', '/protected', { headers: bearer(ADMIN.bearer) })).header('allow'),
    conformant: 'GET, HEAD, OPTIONS',
    defective: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  },
  // success statuses
  'post-201': {
    probe: async (url) =>
      status(
        await call(url, 'POST', '/users', {
          headers: { ...bearer(ADMIN.bearer), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Probe' }),
        }),
      ),
    conformant: 200,
    defective: 201,
  },
  'put-204': {
    probe: async (url) =>
      status(
        await call(url, 'PUT', '/users/1', {
          headers: { ...bearer(ADMIN.bearer), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Alice Admin', role: 'admin' }),
        }),
      ),
    conformant: 200,
    defective: 204,
  },
  'delete-204': {
    probe: async (url) => status(await call(url, 'DELETE', '/users/4', { headers: bearer(ADMIN.bearer) })),
    conformant: 200,
    defective: 204,
  },
  // errors
  'public-authorization-500': {
    probe: async (url) =>
      status(await call(url, 'GET', '/users', { headers: { authorization: 'Bearer a b' } })),
    conformant: 200,
    defective: 500,
  },
  'errors-as-200': {
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: { ...bearer(ADMIN.bearer), 'x-gatecheck-fault': '500' },
        }),
      ),
    conformant: 500,
    defective: 200,
  },
  'stack-trace-in-500': {
    probe: async (url) =>
      /\n\s+at .+:\d+:\d+/.test(
        (
          await call(url, 'GET', '/protected', {
            headers: { ...bearer(ADMIN.bearer), 'x-gatecheck-fault': '500' },
          })
        ).text,
      ),
    conformant: false,
    defective: true,
  },
  'problem-status-string': {
    probe: async (url) => typeof (await call(url, 'GET', '/protected')).json().status,
    conformant: 'number',
    defective: 'string',
  },
  // rate limiting
  'no-rate-limit': {
    probe: async (url) => burst(url, 4),
    conformant: [200, 200, 200, 429],
    defective: [200, 200, 200, 200],
    options: LIMIT_3,
  },
  'retry-after-iso-date': {
    probe: async (url) => {
      await burst(url, 3);
      const value = (await call(url, 'GET', '/protected', { headers: bearer(CAROL.bearer) })).header(
        'retry-after',
      );
      return /^\d+$/.test(value ?? '')
        ? 'delay-seconds'
        : /^\d{4}-\d\d-\d\dT/.test(value ?? '')
          ? 'ISO 8601'
          : value;
    },
    conformant: 'delay-seconds',
    defective: 'ISO 8601',
    options: LIMIT_3,
  },
  'rate-limit-never-resets': {
    probe: async (url, clock) => {
      const limited = await burst(url, 4);
      clock.now += 61_000; // the next window
      return [limited[3], ...(await burst(url, 1))];
    },
    conformant: [429, 200],
    defective: [429, 429],
    options: LIMIT_3,
  },
};

/** A conformant mock and a mock with `defect`, on the same fake clock; both closed after `use`. */
async function pair(
  defect: DefectName,
  options: StartOptions,
  use: (conformant: string, defective: string, clock: FakeClock) => Promise<void>,
): Promise<void> {
  // Mid-window start, so a burst never straddles a window boundary.
  const clock: FakeClock = { now: Math.floor(Date.now() / 60_000) * 60_000 + 1_000 };
  const base: StartOptions = { port: 0, clock: () => clock.now, onError: () => undefined, ...options };
  const mocks: RunningMock[] = [];
  try {
    mocks.push(await startMock(base), await startMock({ ...base, defects: [defect] }));
    await use((mocks[0] as RunningMock).url, (mocks[1] as RunningMock).url, clock);
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

for (const defect of DEFECT_NAMES) {
  test(`defect ${defect} changes what the mock answers`, async () => {
    const { probe, conformant, defective, options = {} } = PROBES[defect];
    await pair(defect, options, async (good, bad, clock) => {
      expect(await probe(good, clock), 'the conformant mock').toEqual(conformant);
      // Separate mocks, separate limiters and data: nothing the first probe did counts against the second.
      expect(await probe(bad, clock), `the mock with --defect ${defect}`).toEqual(defective);
    });
  });
}

test('the registry names are stable kebab-case, unique, and listed in the config schema', () => {
  for (const name of DEFECT_NAMES) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  expect(new Set(DEFECT_NAMES).size).toBe(DEFECT_NAMES.length);
  // The fuzz engineer's tests use these three names.
  expect(DEFECT_NAMES).toEqual(
    expect.arrayContaining(['alg-none', 'basic-bad-base64-500', 'scheme-case-sensitive']),
  );
  const schema = JSON.parse(readFileSync(fixture('schemas/mock-config.schema.json'), 'utf8')) as {
    properties: { defects: { items: { enum: string[] } } };
  };
  expect(schema.properties.defects.items.enum).toEqual([...DEFECT_NAMES]);
});

test('every rule a defect names is in the catalogue, and every catalogue rule is killable or stated unproven', () => {
  const ids = new Set(catalogue.map((r) => r.id));
  for (const defect of DEFECTS as readonly DefectSpec[]) {
    for (const id of [...defect.rules, ...(defect.collateral ?? [])]) {
      expect(ids.has(id), `${defect.name} names ${id}, which the catalogue does not have`).toBe(true);
    }
    expect(defect.rules.length, `${defect.name} targets no rule`).toBeGreaterThan(0);
  }
  const targeted = new Set((DEFECTS as readonly DefectSpec[]).flatMap((d) => d.rules));
  const uncovered = catalogue
    .map((r) => r.id)
    .filter((id) => !targeted.has(id) && UNPROVEN[id] === undefined);
  expect(uncovered, 'rules no defect targets and no reason is given for').toEqual([]);
  for (const id of Object.keys(UNPROVEN)) expect(ids.has(id), `UNPROVEN names ${id}`).toBe(true);
});

test('defects are off by default, and an unknown name is refused with one line', async () => {
  const mock = await startMock({ port: 0 });
  try {
    expect(mock.config.defects).toEqual([]);
  } finally {
    await mock.close();
  }
  await expect(startMock({ port: 0, defects: ['no-such-defect' as DefectName] })).rejects.toThrow(
    /^options\.defects\[0\]: must be one of scheme-case-sensitive, /,
  );
});

test('docs/defects.md documents every defect', () => {
  const doc = readFileSync(fixture('../docs/defects.md'), 'utf8');
  for (const name of DEFECT_NAMES) expect(doc, `docs/defects.md lacks ${name}`).toContain(`\`${name}\``);
});

test('npm run mock -- --list-defects lists every defect with the rules that catch it', async () => {
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', fixture('../mock/cli.ts'), '--list-defects'],
      { timeout: 30_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
  for (const defect of DEFECTS as readonly DefectSpec[]) {
    expect(output).toContain(defect.name);
    expect(output).toContain(defect.rules[0] as string);
  }
});
