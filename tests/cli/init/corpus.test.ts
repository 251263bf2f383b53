/**
 * `gatecheck init` on published OpenAPI documents (tests/cli/init/corpus/: excerpts of thirty-one, each with its
 * source and licence in SOURCES.md and, for YAML, its header). For each: no crash, the expected profile, valid against
 * the schema, no claim the document does not make (claims.ts, an independent reading), every to-do and every
 * variable printed whole, and the variables' names in the `.env`-style file beside the profile. Then one test
 * per kind of wrong claim the issue found, each naming the document that shows it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { envFilePath, runInit } from '../../../cli/init/command.ts';
import { readOpenApi } from '../../../cli/init/read-document.ts';
import { startMock } from '../../../mock/server.ts';
import { schemaValidator } from '../../../shared/json-schema.ts';
import { unfoundedClaims } from './claims.ts';

type Json = Record<string, unknown>;

const CORPUS = path.join(import.meta.dirname, 'corpus');
const DOCUMENTS = path.join(import.meta.dirname, 'documents');
const SCHEMA = path.join(import.meta.dirname, '../../../fixtures/schemas/profile.schema.json');

/** Document, and whether init is asked for writes. */
const CASES: readonly (readonly [string, boolean])[] = [
  ['petstore.yaml', false],
  ['sendgrid.yaml', false],
  ['sendgrid.yaml', true],
  ['kubernetes.json', false],
  ['outline.yaml', false],
  ['keycloak.json', false],
  ['immich.yaml', false],
  ['immich.yaml', true],
  ['jellyfin.json', false],
  ['okta.yaml', false],
  ['openai.yaml', false],
  ['sentry.json', false],
  ['digitalocean.yaml', false],
  ['digitalocean.yaml', true],
  ['vault.json', false],
  ['binance.yaml', false],
  ['harbor.yaml', false],
  ['twilio.yaml', false],
  ['mastodon.yaml', false],
  // Fifteen more (issue #39), each with --writes: every pick at once.
  ['pagerduty.json', true],
  ['gitea.json', true],
  ['realworld.yaml', true],
  ['gotify.json', true],
  ['box.json', true],
  ['kratos.json', true],
  ['vikunja.json', true],
  ['discourse.json', true],
  ['spotify.yaml', true],
  ['plaid.yaml', true],
  ['paypal-products.json', true],
  ['asana.yaml', true],
  ['netlify.yaml', true],
  ['docker.yaml', true],
  ['pagerduty-events.json', true],
];

interface Written {
  readonly profile: Json & { todo: string[]; endpoints: Json; identities: Json };
  readonly stdout: string;
  readonly env: string;
}

/** Runs init in-process on `source` (a file or URL), as the CLI does, and reads back what it wrote. */
async function init(source: string, writes = false): Promise<Written> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-init-'));
  try {
    const out = path.join(dir, 'profile.json');
    let stdout = '';
    await runInit(
      { source, out, force: false, probe: undefined, writes },
      {
        out: (t) => {
          stdout += t;
        },
        err: (t) => {
          stdout += t;
        },
      },
    );
    return {
      profile: JSON.parse(await readFile(out, 'utf8')),
      stdout,
      env: await readFile(envFilePath(out), 'utf8').catch(() => ''),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const corpus = (file: string) => path.join(CORPUS, file);
const endpoint = (w: Written, role: string) => w.profile.endpoints[role] as Json | undefined;

for (const [file, writes] of CASES) {
  const expectedFile = file.replace(
    /\.(yaml|json)$/,
    writes ? '.writes.expected-profile.json' : '.expected-profile.json',
  );
  test(`init on ${file}${writes ? ' --writes' : ''} → the expected profile, valid, no claim the document does not make, every to-do and variable printed whole`, async () => {
    const written = await init(corpus(file), writes);
    expect(written.profile).toEqual(JSON.parse(await readFile(corpus(expectedFile), 'utf8')));
    const validate = schemaValidator(SCHEMA);
    expect(validate(written.profile), JSON.stringify(validate.errors)).toBe(true);
    const { doc } = await readOpenApi(corpus(file));
    expect(unfoundedClaims(doc, written.profile)).toEqual([]);
    for (const item of written.profile.todo) expect(written.stdout).toContain(item);
    const names = [...JSON.stringify(written.profile).matchAll(/"env":"([A-Z0-9_]+)"/g)].map((m) => m[1]);
    for (const name of names) {
      expect(written.stdout).toContain(`  ${name}  `);
      expect(written.env).toContain(`\n${name}=\n`);
    }
    expect(written.stdout).not.toContain('_…');
  });
}

test('AND of two schemes (OpenAPI §4.8.30: all at once) is left out with a to-do naming it, never read as either one', async () => {
  const w = await init(path.join(DOCUMENTS, 'and-requirements-3.1.yaml'));
  expect(endpoint(w, 'protected')).toEqual({ path: '/me', method: 'GET', schemes: ['bearer'] });
  expect(JSON.stringify(w.profile.endpoints)).not.toContain('/reports');
  expect(JSON.stringify(w.profile.endpoints)).not.toContain('/exports');
  expect(JSON.stringify(w.profile.identities)).not.toContain('basic');
  expect(w.profile.todo.join('\n')).toContain(
    '{BearerAuth + BasicAuth} (all at once) on 1 operation (GET /reports)',
  );
  expect(w.profile.todo.join('\n')).toContain(
    '{BearerAuth + ApiKeyHeader} (all at once) on 1 operation (GET /exports)',
  );
});

test('apiKey in Authorization keeps its own word: SSWS as Okta states it, Bearer as Kubernetes states it, a to-do where the document is silent (Jellyfin, SendGrid)', async () => {
  const okta = await init(corpus('okta.yaml'));
  expect(okta.profile.apikeyScheme).toBe('SSWS');
  expect(endpoint(okta, 'protected')?.schemes).toEqual(['bearer', 'apikey']);
  const kubernetes = await init(corpus('kubernetes.json'));
  expect(endpoint(kubernetes, 'protected')?.schemes).toEqual(['bearer']);
  expect(kubernetes.profile.apikeyScheme).toBeUndefined();
  for (const file of ['jellyfin.json', 'sendgrid.yaml']) {
    const silent = await init(corpus(file));
    expect(
      silent.profile.todo.some((t) => t.startsWith('/apikeyScheme:') && t.includes('does not say')),
    ).toBe(true);
  }
});

test('keys in other headers and cookies are named in the to-do list and never become an Authorization scheme (Petstore, Immich, Binance)', async () => {
  for (const [file, scheme] of [
    ['petstore.yaml', 'api_key'],
    ['immich.yaml', 'api_key'],
    ['immich.yaml', 'cookie'],
    ['binance.yaml', 'ApiKeyAuth'],
  ] as const) {
    const w = await init(corpus(file));
    expect(w.profile.todo.some((t) => t.startsWith(`security scheme ${scheme} (apiKey`))).toBe(true);
    expect(w.profile.apikeyScheme).toBeUndefined();
    expect(JSON.stringify(w.profile.identities)).not.toContain('apikey');
  }
});

test('oauth2 of every flow is Bearer: implicit (Petstore) and authorizationCode (Outline) with a to-do to fetch a token; client credentials (Mastodon) fetched from its token URL', async () => {
  const petstore = await init(corpus('petstore.yaml'));
  expect(endpoint(petstore, 'protected')?.schemes).toEqual(['bearer']);
  expect(petstore.profile.todo.join('\n')).toContain(
    "petstore_auth's tokens come from implicit at https://petstore3.swagger.io/oauth/authorize",
  );
  const outline = await init(corpus('outline.yaml'));
  expect(endpoint(outline, 'protected')?.schemes).toEqual(['bearer']);
  const mastodon = await init(corpus('mastodon.yaml'));
  expect((mastodon.profile.identities.user as Json).token).toEqual({
    oauth2: expect.objectContaining({ tokenUrl: '/oauth/token', grant: 'client_credentials' }),
  });
});

test('servers: another server per operation is left out (DigitalOcean), variables take their defaults with the enum in the to-do (Sentry), a relative server keeps its prefix on the paths (Immich)', async () => {
  const digitalocean = await init(corpus('digitalocean.yaml'));
  expect(JSON.stringify(digitalocean.profile.endpoints)).not.toContain('/v1/');
  expect(digitalocean.profile.todo.join('\n')).toContain(
    'at https://inference.do-ai.run): the profile has one baseUrl; left out',
  );
  const sentry = await init(corpus('sentry.json'));
  expect(sentry.profile.baseUrl).toBe('https://us.sentry.io');
  expect(sentry.profile.todo.join('\n')).toContain(
    '{region} = us (its default; the document also allows de)',
  );
  const immich = await init(corpus('immich.yaml'));
  expect(immich.profile.baseUrl).toBeUndefined();
  expect(endpoint(immich, 'protected')?.path).toBe('/api/tags');
  expect(endpoint(immich, 'missing')?.path).toBe('/api/gatecheck-no-such-path');
});

test('picks: path parameters from examples (OpenAI), a to-do for one without (Keycloak), a reading POST when every operation is a POST (Outline), the admin from x- markers and the protected one without (Immich)', async () => {
  const openai = await init(corpus('openai.yaml'));
  expect(endpoint(openai, 'admin')?.path).toBe(
    '/fine_tuning/checkpoints/ft-AF1WoRqd3aJAHsqc9NY7iL8F/permissions',
  );
  const keycloak = await init(corpus('keycloak.json'));
  expect(endpoint(keycloak, 'protected')?.path).toBe('/');
  expect(JSON.stringify(keycloak.profile.endpoints)).not.toContain('{realm}');
  const outline = await init(corpus('outline.yaml'));
  expect(endpoint(outline, 'protected')).toEqual({ path: '/auth.info', method: 'POST', schemes: ['bearer'] });
  const immich = await init(corpus('immich.yaml'));
  expect(endpoint(immich, 'admin')?.path).toBe('/api/admin/users');
  expect(immich.profile.todo.join('\n')).toContain('runner-up: GET /api/jobs');
  expect(endpoint(immich, 'protected')?.path).not.toMatch(/jobs|admin/);
});

test("picks on the mock's own document: never its rate-limited GET /limited for protected, the fault or the 405 check", async () => {
  const mock = await startMock({ port: 0 });
  try {
    const w = await init(`${mock.url}/openapi.json`);
    expect(endpoint(w, 'protected')?.path).toBe('/protected');
    expect(endpoint(w, 'methodNotAllowed')?.path).toBe('/protected');
    expect((w.profile.fault as Json).path).toBe('/protected');
    expect(JSON.stringify(w.profile.endpoints)).not.toContain('/limited');
  } finally {
    await mock.close();
  }
});

test('writes are off unless asked; asked, never a collection that starts work (Immich POST /jobs) or costs money (DigitalOcean droplets), and the sample item printed', async () => {
  const off = await init(corpus('immich.yaml'));
  expect(endpoint(off, 'collection')).toBeUndefined();
  expect(off.profile.todo.join('\n')).toContain('writes are off unless asked');
  const immich = await init(corpus('immich.yaml'), true);
  expect(endpoint(immich, 'collection')?.path).toBe('/api/tags');
  expect(immich.profile.todo.join('\n')).toContain('never: POST /api/jobs (its path names jobs)');
  expect(immich.stdout).toContain('Sample item the write rules will POST:\n  {"name":"gatecheck-probe"}');
  const digitalocean = await init(corpus('digitalocean.yaml'), true);
  expect(endpoint(digitalocean, 'collection')?.path).toBe('/v2/tags');
  expect(digitalocean.profile.todo.join('\n')).toContain('never: POST /v2/droplets');
});

test('responses read: SendGrid declares POST → 201, DELETE → 204 and the id in api_key_id; the profile declares them (deviations from the seed the report lists) and the to-do says so', async () => {
  const w = await init(corpus('sendgrid.yaml'), true);
  expect(endpoint(w, 'collection')).toMatchObject({
    path: '/v3/api_keys',
    declaredStatuses: { post: 201, put: 200, delete: 204 },
    idField: 'api_key_id',
  });
  expect(w.profile.todo).toContain(
    "/endpoints/collection/declaredStatuses/post: POST answers 201 in this document — a declared deviation from the seed (§4 rule 2: 200): the success rules judge against it and the report lists it; remove it to certify the seed's own interface",
  );
});

test('lenient reading: a dangling $ref outside security is reported and ignored (Keycloak), Swagger 2.0 is converted with a line saying so (Harbor), no security at all is said before anything is called public (Vault)', async () => {
  const keycloak = await init(corpus('keycloak.json'));
  expect(keycloak.profile.todo[0]).toContain('1 $ref the document does not resolve');
  expect(keycloak.profile.todo[0]).toContain('oas_any_type_not_mapped');
  const harbor = await init(corpus('harbor.yaml'));
  expect(harbor.profile.todo[0]).toContain('Swagger 2.0, converted to OpenAPI 3.0');
  expect(harbor.profile.baseUrl).toBe('http://localhost/api/v2.0');
  const vault = await init(corpus('vault.json'));
  expect(vault.profile.todo[0]).toContain('the document states no security requirement at all');
  expect(vault.profile.todo.findIndex((t) => t.startsWith('/endpoints/public'))).toBeGreaterThan(0);
});

test('two Bearer schemes never share one variable: OpenAI keeps its project key for every identity and names the admin key it leaves out', async () => {
  const w = await init(corpus('openai.yaml'));
  expect(w.profile.identities).toEqual({
    admin: { bearer: { env: 'GATECHECK_ADMIN_BEARER' } },
    user: { bearer: { env: 'GATECHECK_USER_BEARER' } },
  });
  expect(w.profile.todo.join('\n')).toContain(
    'security scheme AdminApiKeyAuth (http bearer: another Bearer token than ApiKeyAuth',
  );
  expect(endpoint(w, 'protected')?.path).toBe('/models');
});
