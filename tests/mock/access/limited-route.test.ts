/**
 * The bundled policy's GET /limited (docs/mock.md "Rate limits"): Bearer or Basic like /protected, serving the
 * `protected` resource (policy `resource`), so data files made for the default policy need nothing new; and a
 * short limit of its own (group `limited`, 20 per 1 s per identity).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMock } from '../../../mock/server.ts';
import { call } from '../mock-support.ts';

test('a data file without a `limited` resource works with the default policy; /limited serves `protected`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatecheck-limited-'));
  try {
    const dataPath = join(dir, 'db.json');
    writeFileSync(dataPath, JSON.stringify({ users: [], protected: { message: 'p' }, admin: {} }));
    const mock = await startMock({ port: 0, host: '127.0.0.1', dataPath });
    try {
      expect((await call(mock.url, 'GET', '/limited')).status).toBe(401);
    } finally {
      await mock.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('/limited has a group of its own, 20 requests per 1 s; /protected keeps the default, 3,000 per 10 s', async () => {
  const mock = await startMock({ port: 0, host: '127.0.0.1' });
  try {
    const carol = { authorization: `Basic ${Buffer.from('carol:throwaway-carol').toString('base64')}` };
    const limited = await call(mock.url, 'GET', '/limited', { headers: carol });
    expect(limited.status).toBe(200);
    expect(limited.header('ratelimit-policy')).toBe('"limited";q=20;w=1');
    const protectedAnswer = await call(mock.url, 'GET', '/protected', { headers: carol });
    expect(protectedAnswer.header('ratelimit-policy')).toBe('"default";q=3000;w=10');
  } finally {
    await mock.close();
  }
});
