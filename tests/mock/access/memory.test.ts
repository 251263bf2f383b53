/**
 * Bounded memory: however many distinct clients arrive, the limiter tracks at most `rateLimit.maxKeys` of
 * them, and their in-process counts live in those entries (mock/access/rate-limit-counts.ts). Distinct
 * clients are presented through X-Forwarded-For with 127.0.0.1 trusted (loopback only). The resident-memory
 * figures come from memory.bench.ts.
 */

import { Agent, request } from 'node:http';
import { expect, test } from '@playwright/test';
import type { RunningMock } from '../../../mock/server.ts';
import { controlJson, freezeAtWindowStart, startTestMock } from '../control/control-support.ts';

const MAX_KEYS = 300;
const CLIENTS = 3000;

/** Client number i as an address: 10.x.y.z for even i, 2001:db8::i for odd i. */
const address = (i: number): string =>
  i % 2 === 0 ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `2001:db8::${i.toString(16)}`;

let mock: RunningMock;
test.beforeEach(async () => {
  mock = await startTestMock({
    access: { trustedProxies: ['127.0.0.1'] },
    rateLimit: {
      maxKeys: MAX_KEYS,
      groups: { default: { limit: 3, windowSeconds: 60, banAfter: 1000, banSeconds: 0 } },
    },
  });
  await freezeAtWindowStart(mock);
});
test.afterEach(async () => {
  await mock?.close();
});

/** GET /users/1 over a keep-alive agent (mock-support's `call` opens a connection per request). */
function status(agent: Agent, xff: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${mock.url}/users/1`, { agent, headers: { 'x-forwarded-for': xff } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function sendFrom(clients: number[], agent: Agent, concurrency = 16): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < clients.length) {
      const i = clients[next++] as number;
      statuses.push(await status(agent, address(i)));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

test(`${CLIENTS} distinct client addresses → at most maxKeys (${MAX_KEYS}) tracked, their counts with them; the least recently seen are forgotten`, async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const statuses = await sendFrom(
      Array.from({ length: CLIENTS }, (_, i) => i),
      agent,
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const status = (await controlJson(mock, 'GET', '/limits')) as { tracked: number };
    expect(status.tracked).toBe(MAX_KEYS);

    // A new window: every tracked client starts counting again in its own entry; still no more entries.
    await controlJson(mock, 'POST', '/clock', { advanceSeconds: 60 });
    await sendFrom(
      Array.from({ length: MAX_KEYS * 2 }, (_, i) => CLIENTS - 1 - i),
      agent,
    );
    expect(((await controlJson(mock, 'GET', '/limits')) as { tracked: number }).tracked).toBe(MAX_KEYS);
  } finally {
    agent.destroy();
  }
});

test('an address spray cannot erase an active client’s count: a limited client that keeps sending stays limited', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const abuser = 999_999;
  try {
    expect(await sendFrom([abuser, abuser, abuser, abuser], agent, 1)).toEqual([200, 200, 200, 429]);
    for (let round = 0; round < 10; round++) {
      // MAX_KEYS / 3 new addresses per round: ten rounds are ten times the cap.
      const spray = Array.from({ length: MAX_KEYS / 3 }, (_, i) => round * 1000 + i);
      await sendFrom(spray, agent);
      expect(await sendFrom([abuser], agent, 1)).toEqual([429]);
    }
    expect(((await controlJson(mock, 'GET', '/limits')) as { tracked: number }).tracked).toBeLessThanOrEqual(
      MAX_KEYS,
    );
  } finally {
    agent.destroy();
  }
});
