/**
 * Configuration and policy are validated at start-up; a bad one is refused with ONE line naming the field and
 * what is expected. The policy decides who gets in (an inline policy changes the answers).
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConfigError, DEFAULT_CONFIG, FIXTURES_DIR, loadConfig } from '../../mock/config.ts';
import type { Policy } from '../../mock/routing/policy.ts';
import { startMock } from '../../mock/server.ts';
import { authorization, call, fixture, USER } from './mock-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'gatecheck-config-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
function file(content: unknown): string {
  const path = join(dir, `file-${++counter}.json`);
  // fullyParallel: this worker may have run the afterAll below (removing `dir`) and then come back to this file.
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const POLICY = JSON.parse(readFileSync(fixture('policy.json'), 'utf8')) as Policy;
interface EditableRoute {
  path: string;
  methods: Record<string, unknown>;
}
const clone = (): { routes: EditableRoute[] } => JSON.parse(JSON.stringify(POLICY));
/** Route `index` of an editable policy copy. */
const at = (policy: { routes: EditableRoute[] }, index: number): EditableRoute =>
  policy.routes[index] as EditableRoute;

/** The error thrown by `run`, checked to be a ConfigError with a one-line message. */
async function refusal(run: () => unknown): Promise<string> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a ConfigError').toBeInstanceOf(ConfigError);
  const message = (caught as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

test.describe('mock configuration (fixtures/schemas/mock-config.schema.json)', () => {
  test('no file → the defaults, with absolute paths into fixtures/', () => {
    const config = loadConfig();
    expect(config.dataPath).toBe(join(FIXTURES_DIR, 'db.json'));
    expect(config.policyPath).toBe(join(FIXTURES_DIR, 'policy.json'));
    expect(config.realm).toBe('gatecheck');
    expect(config.auth.algorithms).toEqual(['RS256', 'ES256']);
    expect(config.clock).toBe(DEFAULT_CONFIG.clock);
  });

  test('a file overrides defaults; relative paths resolve against the file, nested objects merge', () => {
    const path = file({ dataPath: 'seed.json', realm: 'staging', auth: { clockToleranceSeconds: 5 } });
    const config = loadConfig(path);
    expect(config.dataPath).toBe(join(dir, 'seed.json'));
    expect(config.realm).toBe('staging');
    expect(config.auth.clockToleranceSeconds).toBe(5);
    expect(config.auth.issuer).toBe(DEFAULT_CONFIG.auth.issuer);
  });

  const BAD: Array<[string, unknown, string]> = [
    [
      'an unknown key',
      { colour: 'red' },
      // A prefix: later sections (access, rateLimit, faults, control, …) follow in the list.
      'config.colour: unknown key (expected one of dataPath, persistPath, policyPath, policy, realm, maxBodyBytes, server, auth, ',
    ],
    [
      'an unknown nested key',
      { server: { timeout: 5 } },
      'config.server.timeout: unknown key (expected one of headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxHeaderBytes, strictHost)',
    ],
    ['a wrong type', { maxBodyBytes: 'big' }, 'config.maxBodyBytes: must be integer'],
    [
      'a disallowed algorithm',
      { auth: { algorithms: ['RS256', 'HS256'] } },
      'config.auth.algorithms[1]: must be one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA',
    ],
    ['alg none', { auth: { algorithms: ['none'] } }, 'config.auth.algorithms[0]: must be one of'],
    [
      'a realm with a quote',
      { realm: 'a"b' },
      'config.realm: must be printable ASCII without quotes or backslashes',
    ],
    ['a too small limit', { maxBodyBytes: 0 }, 'config.maxBodyBytes: must be >= 1'],
    [
      'a proxyHeader that is not one of the two',
      { access: { proxyHeader: 'X-Real-IP' } },
      'config.access.proxyHeader: must be one of x-forwarded-for, forwarded',
    ],
    [
      'a proxyHeader spelled as the field name, not the setting',
      { access: { proxyHeader: 'Forwarded' } },
      'config.access.proxyHeader: must be one of x-forwarded-for, forwarded',
    ],
    [
      'a Redis prefix with a colon (it would overlap another prefix)',
      { store: { redisUrl: 'redis://127.0.0.1:6379', prefix: 'a:b' } },
      'config.store.prefix: must be 1 to 64 letters, digits, _ . or - (no colon)',
    ],
    [
      'a Redis URL of another scheme',
      { store: { redisUrl: 'http://x' } },
      'config.store.redisUrl: must be a redis:// or rediss:// URL',
    ],
    [
      'an unknown fallback',
      { store: { onUnavailable: 'wait' } },
      'config.store.onUnavailable: must be one of insurance, refuse',
    ],
  ];
  for (const [name, content, message] of BAD) {
    test(`a config file with ${name} is refused with one line naming the field`, async () => {
      const path = file(content);
      const line = await refusal(() => loadConfig(path));
      expect(line.startsWith(message), line).toBe(true);
      expect(line.endsWith(`(in ${path})`)).toBe(true);
    });
  }

  test('access.proxyHeader: x-forwarded-for by default; a file may choose forwarded, and the other access keys keep their defaults', () => {
    expect(loadConfig().access.proxyHeader).toBe('x-forwarded-for');
    const config = loadConfig(file({ access: { proxyHeader: 'forwarded' } }));
    expect(config.access.proxyHeader).toBe('forwarded');
    expect(config.access.countryHeader).toBe(DEFAULT_CONFIG.access.countryHeader);
    expect(loadConfig(undefined, { access: { proxyHeader: 'forwarded' } }).access.proxyHeader).toBe(
      'forwarded',
    );
  });

  test('a config file that is not JSON, or missing, is refused with one line', async () => {
    expect(await refusal(() => loadConfig(file('{ nope')))).toMatch(/^config .*file-\d+\.json: /);
    expect(await refusal(() => loadConfig(join(dir, 'absent.json')))).toMatch(
      /absent\.json: file not found$/,
    );
  });

  test('programmatic options are validated too (unknown keys refused)', async () => {
    const line = await refusal(() => startMock({ port: 0, realm: 42 as unknown as string }));
    expect(line).toBe('options.realm: must be string');
  });

  test('store.type redis without a URL is refused with one line naming the field and the flag', async () => {
    const line = await refusal(() => loadConfig(file({ store: { type: 'redis' } })));
    expect(line).toBe('config.store.redisUrl (--redis-url): required when store.type is redis');
  });

  test('a request timeout shorter than the headers timeout is refused', async () => {
    const path = file({ server: { headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 } });
    expect(await refusal(() => loadConfig(path))).toMatch(
      /^config\.server\.requestTimeoutMs: must be at least/,
    );
  });

  test('persistence into fixtures/ or onto the seed file is refused: the mock never writes there', async () => {
    expect(
      await refusal(() => loadConfig(undefined, { persistPath: join(FIXTURES_DIR, 'state.json') })),
    ).toMatch(/^config\.persistPath \(--data\): must be outside/);
    const seed = join(dir, 'seed.json');
    expect(await refusal(() => loadConfig(undefined, { dataPath: seed, persistPath: seed }))).toMatch(
      /must not be the seed data file/,
    );
  });
});

test.describe('access policy (fixtures/schemas/policy.schema.json)', () => {
  const broken = (edit: (p: ReturnType<typeof clone>) => void) => {
    const policy = clone();
    edit(policy);
    return policy;
  };
  const CASES: Array<[string, ReturnType<typeof clone>, string]> = [
    [
      'an unknown scheme',
      broken((p) => {
        (at(p, 2).methods.GET as { schemes: string[] }).schemes[0] = 'digest';
      }),
      'policy.routes[2].methods.GET.schemes[0]: must be one of bearer, basic, apikey',
    ],
    [
      'a string other than "public"',
      broken((p) => {
        at(p, 0).methods.GET = 'private';
      }),
      'policy.routes[0].methods.GET: must be one of public, closed',
    ],
    [
      'an unknown method',
      broken((p) => {
        at(p, 0).methods.FETCH = 'public';
      }),
      'policy.routes[0].methods.FETCH: unknown key (expected one of GET, POST, PUT, PATCH, DELETE)',
    ],
    [
      'no schemes',
      broken((p) => {
        at(p, 3).methods.GET = { roles: ['admin'] };
      }),
      'policy.routes[3].methods.GET.schemes: is required',
    ],
    [
      'a path that is not /<resource>[/:id]',
      broken((p) => {
        at(p, 1).path = '/users/{id}';
      }),
      'policy.routes[1].path: must be /<resource> or /<resource>/:id, where <resource> is a top-level key of the data',
    ],
    [
      'a path to a resource the data does not have',
      broken((p) => {
        at(p, 3).path = '/root';
      }),
      'policy.routes[3].path: the data has no resource "root"',
    ],
    [
      'DELETE on a collection path',
      broken((p) => {
        at(p, 0).methods.DELETE = 'public';
      }),
      'policy.routes[0].methods.DELETE: not supported on a collection resource (/users) (supported: GET, POST)',
    ],
    [
      'an item path on a singular resource',
      broken((p) => {
        at(p, 3).path = '/admin/:id';
      }),
      'policy.routes[3].path: "admin" is a singular resource; use /admin',
    ],
    [
      'the same path twice',
      broken((p) => {
        at(p, 3).path = '/protected';
      }),
      'policy.routes[3].path: duplicate of policy.routes[2]',
    ],
    [
      'a role that is not a scope-token',
      broken((p) => {
        at(p, 3).methods.GET = {
          schemes: ['bearer'],
          roles: ['sys admin'],
        };
      }),
      'policy.routes[3].methods.GET.roles[0]: must be a scope-token',
    ],
  ];
  for (const [name, policy, message] of CASES) {
    test(`a policy with ${name} is refused at start-up: "${message}"`, async () => {
      const inline = await refusal(() => startMock({ port: 0, policy: policy as unknown as Policy }));
      expect(inline.startsWith(message), inline).toBe(true);
      const path = file(policy);
      const fromFile = await refusal(() => startMock({ port: 0, policyPath: path }));
      expect(fromFile.startsWith(message), fromFile).toBe(true);
    });
  }

  test('the policy decides: an inline policy that lets /protected take Apikey and /admin be public', async () => {
    const policy = clone();
    at(policy, 2).methods.GET = { schemes: ['apikey'] };
    at(policy, 3).methods.GET = 'public';
    const mock = await startMock({ port: 0, policy: policy as unknown as Policy, realm: 'elsewhere' });
    try {
      const key = { authorization: authorization(USER, 'apikey') };
      expect((await call(mock.url, 'GET', '/protected', { headers: key })).status).toBe(200);
      const basic = await call(mock.url, 'GET', '/protected', {
        headers: { authorization: authorization(USER, 'basic') },
      });
      expect(basic.status).toBe(401);
      expect(basic.all('www-authenticate')).toEqual(['Apikey realm="elsewhere"']);
      expect((await call(mock.url, 'GET', '/admin')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  test('a data file that is not JSON, or has a non-object item, is refused with one line', async () => {
    expect(await refusal(() => startMock({ port: 0, dataPath: file('[') }))).toMatch(/^seed data .*: /);
    const odd = file({ users: [1] });
    expect(await refusal(() => startMock({ port: 0, dataPath: odd }))).toBe(
      `seed data ${odd}: users[0] must be an object`,
    );
  });
});
