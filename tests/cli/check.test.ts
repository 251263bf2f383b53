/**
 * `gatecheck check --profile <file> [--probe]` (cli/check.ts, issue #40): a profile checked without a run —
 * every missing variable at once, "did you mean" for a misspelt field, the rules that would run and skip, and
 * with --probe one GET per declared endpoint (the bundled mock, on loopback; a closed loopback port). Also
 * `--list-rules` with a profile it cannot read, and a Playwright option given before `--`. In-process.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { main } from '../../cli/app.ts';
import { holds } from '../../cli/check.ts';
import { EXIT } from '../../cli/exit-codes.ts';
import { startMock } from '../../mock/server.ts';
import { ROOT } from '../report/synthetic.ts';

const MOCK_PROFILE = path.join(ROOT, 'fixtures/mock.profile.json');

function capture() {
  const io = {
    stdout: '',
    stderr: '',
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

let dir: string;
test.beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-check-'));
});
test.afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The mock's profile changed by `edit`, written to the scratch folder. */
interface EditableProfile {
  identities: Record<string, Record<string, unknown>>;
  endpoints: Record<string, unknown>;
  [field: string]: unknown;
}

async function profileFile(edit: (profile: EditableProfile) => void): Promise<string> {
  const profile = JSON.parse(await readFile(MOCK_PROFILE, 'utf8'));
  edit(profile);
  const file = path.join(dir, 'target.profile.json');
  await writeFile(file, JSON.stringify(profile));
  return file;
}

test('every variable not set is listed at once, with its field, and no value; exit 2', async () => {
  const file = await profileFile((p) => {
    (p.identities.admin?.basic as Record<string, unknown>).password = { env: 'CHECK_ADMIN_PASSWORD' };
    (p.identities.user?.basic as Record<string, unknown>).password = { env: 'CHECK_USER_PASSWORD' };
    (p.identities.user as Record<string, unknown>).bearer = { env: 'CHECK_USER_BEARER' };
  });
  const io = capture();
  delete process.env.CHECK_USER_BEARER;
  process.env.CHECK_ADMIN_PASSWORD = 'admin-secret-value';
  try {
    expect(await main(['check', '--profile', file], io)).toBe(EXIT.usage);
  } finally {
    delete process.env.CHECK_ADMIN_PASSWORD;
  }
  expect(io.stderr).toContain('2 environment variable(s) not set or empty');
  expect(io.stderr).toContain('CHECK_USER_PASSWORD  (/identities/user/basic/password)');
  expect(io.stderr).toContain('CHECK_USER_BEARER  (/identities/user/bearer)');
  expect(io.stderr).not.toContain('CHECK_ADMIN_PASSWORD');
  expect(io.stderr + io.stdout).not.toContain('admin-secret-value');
});

test('a misspelt field: one line with "did you mean"; exit 2', async () => {
  const file = await profileFile((p) => {
    p.ratelimit = { limit: 5, windowSeconds: 1 };
  });
  const io = capture();
  expect(await main(['check', '--profile', file], io)).toBe(EXIT.usage);
  expect(io.stderr).toBe('gatecheck: profile: /ratelimit is not a known field; did you mean rateLimit?\n');
});

test('the class judged, the rules its declaration rules out, those that would run and those that would skip, with what the profile lacks', async () => {
  const whole = capture();
  expect(await main(['check', '--profile', MOCK_PROFILE], whole)).toBe(EXIT.conformant);
  // The mock's profile runs the whole catalogue (the conformance run skips none for data).
  expect(whole.stdout).toMatch(/Would run (\d+) of \1 rules/);
  expect(whole.stdout).not.toContain('Would skip');
  expect(whole.stdout).not.toContain('Not applicable');
  expect(whole.stdout).toContain(
    'Judged as: Bearer (JWT RS256) + Basic + Apikey · public read · writes (admin only) · admin role',
  );

  const file = await profileFile((p) => {
    delete p.endpoints.admin;
    delete p.rateLimit;
  });
  const io = capture();
  expect(await main(['check', '--profile', file], io)).toBe(EXIT.conformant);
  // No admin path: the admin role is not declared, so its rules do not apply (issue #66) — never "skipped".
  expect(io.stdout).toMatch(/Not applicable to the declared interface: \d+ \(never counted as skipped\):/);
  expect(io.stdout).toContain('success.200.admin [MUST] — no admin role is declared (endpoints.admin)');
  expect(io.stdout).not.toContain('success.200.admin [MUST] — profile lacks');
  // No rate limit: the seed asks one of every target (§8), so its rules apply and skip for the missing data.
  expect(io.stdout).toMatch(/Would skip \d+, for data the profile lacks:/);
  expect(io.stdout).toMatch(/ratelimit\.429\S* \[\w+\] — profile lacks rateLimit/);
});

test('the needs of the rules, as written, are read as the profile holds them', () => {
  const profile = { endpoints: { protected: { path: '/p' } }, identities: { user: { basic: {} } }, jwt: {} };
  expect(holds(profile, 'endpoints.public | protected | admin')).toBe(true);
  expect(holds(profile, 'endpoints.admin')).toBe(false);
  expect(holds(profile, 'identities.*.basic / bearer / apikey')).toBe(true);
  expect(holds(profile, 'identities.user.bearer (a JWS) or jwt + identities.user.jwtClaims')).toBe(false);
  expect(
    holds(
      { ...profile, identities: { user: { jwtClaims: {} } } },
      'identities.user.bearer (a JWS) or jwt + identities.user.jwtClaims',
    ),
  ).toBe(true);
});

test('--probe: one GET per declared endpoint of the bundled mock; a closed port → exit 3', async () => {
  const mock = await startMock({ port: 0, host: '127.0.0.1' });
  try {
    const io = capture();
    expect(await main(['check', '--profile', MOCK_PROFILE, '--base-url', mock.url, '--probe'], io)).toBe(
      EXIT.conformant,
    );
    expect(io.stdout).toContain('GET /users → 200');
    expect(io.stdout).toContain('GET /protected → 401');
    // Then each read confirmed by the target's answers (issue #69): GETs only, the user refused the admin read.
    expect(io.stdout).toContain('protected read GET /protected — not contradicted');
    expect(io.stdout).toContain('GET /admin (user, bearer from the profile) → 403');
    expect(io.stdout).toContain('admin read GET /admin — not contradicted');
    expect(io.stdout).toMatch(/ 7 request\(s\) sent, none of them a write/);

    // A protected read the target serves without credentials is contradicted by its answer: not ready, exit 2.
    const wrong = JSON.parse(await readFile(MOCK_PROFILE, 'utf8'));
    wrong.endpoints.protected.path = '/users';
    const file = path.join(dir, 'public-as-protected.json');
    await writeFile(file, JSON.stringify(wrong));
    const contradicted = capture();
    expect(await main(['check', '--profile', file, '--base-url', mock.url, '--probe'], contradicted)).toBe(
      EXIT.usage,
    );
    expect(contradicted.stdout).toContain(
      'protected read GET /users — contradicted: GET /users (no credentials) → 200 without credentials',
    );
    expect(contradicted.stderr).toMatch(
      /^gatecheck: the target's answers contradict the profile's protected read \(GET \/users\): change endpoints\.protected/,
    );
  } finally {
    await mock.close();
  }
  // A target that rate-limits every request: its 429s prove nothing about a pick, so none is contradicted.
  const limited = createHttpServer((_, response) => {
    response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/problem+json' });
    response.end('{"status":429}');
  });
  await new Promise<void>((done) => limited.listen(0, '127.0.0.1', done));
  try {
    const io = capture();
    const url = `http://127.0.0.1:${(limited.address() as { port: number }).port}`;
    expect(await main(['check', '--profile', MOCK_PROFILE, '--base-url', url, '--probe'], io)).toBe(
      EXIT.conformant,
    );
    expect(io.stdout).toContain('public read GET /users — not contradicted');
    expect(io.stdout).toContain('note: GET /users (no credentials) → 429: proves nothing about the pick');
    expect(io.stdout).not.toContain('contradicted:');
  } finally {
    await new Promise<void>((done) => limited.close(() => done()));
  }
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  const io = capture();
  const closed = `http://127.0.0.1:${port}`;
  expect(await main(['check', '--profile', MOCK_PROFILE, '--base-url', closed, '--probe'], io)).toBe(
    EXIT.unreachable,
  );
  expect(io.stdout).toContain('no answer: connection refused');
});

test('--list-rules with a profile that cannot be read → exit 2, one line', async () => {
  const io = capture();
  expect(await main(['--list-rules', '--profile', path.join(dir, 'missing.json')], io)).toBe(EXIT.usage);
  expect(io.stderr).toMatch(/^gatecheck: profile: .*missing\.json does not exist \(ENOENT\)/);
  expect(io.stdout).toBe('');
});

test('a Playwright option before `--` gets the hint to pass it after `--`', async () => {
  const io = capture();
  expect(await main(['--reporter=json'], io)).toBe(EXIT.usage);
  expect(io.stderr).toBe(
    `gatecheck: Unknown option '--reporter': it is Playwright's; pass it after "--" (gatecheck … -- --reporter …)\n`,
  );
  const own = capture();
  expect(await main(['--no-such-flag'], own)).toBe(EXIT.usage);
  expect(own.stderr).toContain('(see --help)');
});
