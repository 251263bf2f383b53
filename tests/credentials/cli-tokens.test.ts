/**
 * A token that cannot be obtained stops the CLI before any rule runs (docs/cli.md exit codes): the endpoint
 * refuses the client (RFC 6749 §5.2 invalid_client) → exit 2 with one line naming the profile field and the
 * error code, never the secret; the endpoint does not answer (a closed loopback port) → exit 3. A secret whose
 * environment variable is missing → exit 2 naming the field and the variable.
 */
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunningMock } from '../../mock/server.ts';
import { type Scratch, scratch } from '../cli/cli.ts';
import { envProfile, startTlsMock } from './oauth-target.ts';

test.describe.configure({ timeout: 120_000 });

let mock: RunningMock;
let box: Scratch;
test.beforeAll(async () => {
  mock = await startTlsMock(3600);
});
test.afterAll(async () => {
  await mock.close();
});
test.beforeEach(async () => {
  box = await scratch();
});
test.afterEach(async () => {
  await box.dispose();
});

async function run(profile: unknown, env: Record<string, string>) {
  const file = path.join(box.dir, 'target.json');
  await writeFile(file, JSON.stringify(profile));
  return box.gatecheck(['--base-url', mock.url, '--profile', file, '--ca-cert', mock.caPath as string], env);
}

/** A loopback port nobody listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('wrong client secret → exit 2, one line naming the field and invalid_client, no secret', async () => {
  const { profile, env } = envProfile();
  const wrong = 'gcs_wrong-secret-that-must-not-be-printed';
  const result = await run(profile, { ...env, GC_ADMIN_CLIENT_SECRET: wrong });
  expect(result.code, result.stderr).toBe(2);
  const line = result.stderr.trim().split('\n').at(-1) ?? '';
  expect(line).toContain('/identities/admin/token/oauth2/clientSecret');
  expect(line).toContain('401 invalid_client');
  for (const text of [result.stdout, result.stderr]) {
    expect(text).not.toContain(wrong);
    for (const secret of Object.values(env)) expect(text).not.toContain(secret);
  }
});

test('token endpoint on a closed loopback port → exit 3 naming the tokenUrl field', async () => {
  const { profile, env } = envProfile();
  const port = await closedPort();
  const identities = (profile as { identities: Record<string, { token: { oauth2: { tokenUrl: string } } }> })
    .identities;
  for (const identity of Object.values(identities))
    identity.token.oauth2.tokenUrl = `https://127.0.0.1:${port}/oauth/token`;
  const result = await run(profile, env);
  expect(result.code, result.stderr).toBe(3);
  expect(result.stderr).toContain('/token/oauth2/tokenUrl');
  expect(result.stderr).toContain('ECONNREFUSED');
});

test('a secret whose environment variable is not set → exit 2 naming the field and the variable', async () => {
  const { profile, env } = envProfile();
  const { GC_USER_APIKEY: _dropped, ...rest } = env;
  const result = await run(profile, rest);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(
    'profile: /identities/user/apikey needs environment variable GC_USER_APIKEY, which is not set',
  );
});
