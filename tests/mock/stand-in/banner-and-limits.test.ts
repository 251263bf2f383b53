/**
 * What the stand-in says and what it does not invent (issue #70): the banner tells per scheme exactly how to
 * send its credential and which operations are the administrator's; a key that only modifies another
 * credential (Gitea's Sudo and one-time password headers) is no credential alone; no rate limit applies that
 * the document does not declare, unless asked for.
 */
import { expect, test } from '@playwright/test';
import { startMock } from '../../../mock/server.ts';
import { documentPath } from '../../../scripts/stand-in-corpus/documents.ts';
import { DATA_DOCUMENT } from './data-document.ts';
import { writeStandInDocument } from './document.ts';

test('the banner says how to send each of Gitea’s schemes, which of them are no credential alone, and its admin operations', async () => {
  const mock = await startMock({ openapi: documentPath('gitea') });
  try {
    const { summaryLines } = await import('../../../mock/standin/banner.ts');
    const lines = summaryLines((mock.standIn as unknown as { summary: never }).summary).join('\n');
    expect(lines).toContain('AuthorizationHeaderToken header Authorization: token $GATECHECK_<ID>_APIKEY');
    expect(lines).toContain('query ?access_token=$GATECHECK_<ID>_APIKEY');
    expect(lines).toMatch(/SudoHeader +header sudo: \$GATECHECK_<ID>_APIKEY — only beside another scheme/);
    expect(lines).toMatch(/Administrator's operations[^\n]*\n(\s+\S+ \S+\n)*\s+GET \/admin\/users\n/);
  } finally {
    await mock.close();
  }
});

test('Gitea: a Sudo or one-time password header alone is 401; the token it accompanies passes', async () => {
  const mock = await startMock({ openapi: documentPath('gitea') });
  try {
    const env = Object.fromEntries(
      ((await mock.standIn?.environment(Date.now())) ?? []).map((v) => [v.name, v.value]),
    );
    const key = env.GATECHECK_ADMIN_APIKEY as string;
    const get = (headers: Record<string, string>) => fetch(`${mock.url}/user`, { headers });
    expect((await get({ sudo: key })).status).toBe(401);
    expect((await get({ 'x-gitea-otp': key })).status).toBe(401);
    expect((await fetch(`${mock.url}/user?sudo=${key}`)).status).toBe(401);
    expect((await get({ authorization: `token ${key}`, sudo: 'gatecheck-user' })).status).toBe(200);
  } finally {
    await mock.close();
  }
});

test('no rate limit the document does not declare: off by default, on when asked for, on where the document declares 429s', async () => {
  const realworld = await startMock({ openapi: documentPath('realworld') });
  const asked = await startMock({
    openapi: documentPath('realworld'),
    rateLimit: { groups: { default: { limit: 5, windowSeconds: 10 } } },
  });
  try {
    expect(realworld.config.rateLimit.enabled).toBe(false);
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) statuses.add((await fetch(`${realworld.url}/api/tags`)).status);
    expect([...statuses]).toEqual([200]);
    expect(asked.config.rateLimit.enabled).toBe(true);
    const limited = new Set<number>();
    for (let i = 0; i < 8; i++) limited.add((await fetch(`${asked.url}/api/tags`)).status);
    expect(limited.has(429)).toBe(true);
  } finally {
    await realworld.close();
    await asked.close();
  }
  const health = DATA_DOCUMENT.paths['/health'].get;
  const declaring = await startMock({
    openapi: await writeStandInDocument({
      ...DATA_DOCUMENT,
      paths: {
        ...DATA_DOCUMENT.paths,
        '/health': {
          get: { ...health, responses: { ...health.responses, '429': { description: 'slow down' } } },
        },
      },
    }),
  });
  try {
    expect(declaring.config.rateLimit.enabled).toBe(true);
  } finally {
    await declaring.close();
  }
});
