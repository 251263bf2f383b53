/**
 * No data loss: 1,000 POSTs to /users in flight at once give exactly 1,000 new records with unique
 * ids; with persistence (`persistPath`, the CLI's --data) a stop and a start keep every one of them; and a
 * SIGKILL of the mock's process in the middle of writes leaves a data file that is valid JSON, holds every
 * record whose POST was answered, and that the mock starts from again (lowdb/steno: write a temporary
 * file, then rename).
 *
 * The rate limit is out of reach (bench/setups.ts): 1,000 writes from one identity are far over the default
 * 300 per 10 s, and what is tested here is the data, not the limiter.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMockProcess } from '../../bench/mock-process.ts';
import { ADMIN, UNREACHABLE_RATE_LIMIT } from '../../bench/setups.ts';
import { startMock } from '../../mock/server.ts';
import { send, unboundedAgent } from './http.ts';

const SEED_USERS = 5;
const N = 1000;
const WRITE = { authorization: `Apikey ${ADMIN.apikey}`, 'content-type': 'application/json' };

interface User {
  id: string;
  name: string;
}

/** N POSTs at once; returns the created records as the mock answered them. */
async function postMany(url: string, n: number, tag: string): Promise<User[]> {
  const agent = unboundedAgent();
  try {
    const replies = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        send(agent, `${url}/users`, {
          method: 'POST',
          headers: WRITE,
          body: JSON.stringify({ name: `${tag} ${i}`, email: `${tag}-${i}@example.test` }),
        }),
      ),
    );
    const statuses = new Map<number, number>();
    for (const r of replies) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses), 'every POST answered 200').toEqual({ 200: n });
    return replies.map((r) => JSON.parse(r.body) as User);
  } finally {
    agent.destroy();
  }
}

async function listUsers(url: string): Promise<User[]> {
  const agent = unboundedAgent();
  try {
    const reply = await send(agent, `${url}/users`);
    expect(reply.status).toBe(200);
    return JSON.parse(reply.body) as User[];
  } finally {
    agent.destroy();
  }
}

function expectAllKept(list: readonly User[], created: readonly User[], total: number): void {
  expect(list).toHaveLength(total);
  const ids = list.map((u) => u.id);
  expect(new Set(ids).size, 'ids are unique').toBe(ids.length);
  const byId = new Map(list.map((u) => [u.id, u.name]));
  const missing = created.filter((u) => byId.get(u.id) !== u.name);
  expect(
    missing.map((u) => u.id),
    'every created record is there, under its id',
  ).toEqual([]);
}

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatecheck-data-loss-'));
});
test.afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('1,000 concurrent POST /users as admin → exactly 1,000 new records, ids unique', async () => {
  const mock = await startMock({ port: 0, rateLimit: UNREACHABLE_RATE_LIMIT });
  try {
    const created = await postMany(mock.url, N, 'burst');
    expect(new Set(created.map((u) => u.id)).size).toBe(N);
    expectAllKept(await listUsers(mock.url), created, SEED_USERS + N);
  } finally {
    await mock.close();
  }
});

test('with persistence, 1,000 concurrent POSTs survive a stop and a start', async () => {
  const persistPath = join(dir, 'state.json');
  const first = await startMock({ port: 0, persistPath, rateLimit: UNREACHABLE_RATE_LIMIT });
  let created: User[];
  try {
    created = await postMany(first.url, N, 'persisted');
  } finally {
    await first.close();
  }
  // close() waits for pending writes: the file holds everything, and it is plain JSON.
  const onDisk = JSON.parse(readFileSync(persistPath, 'utf8')) as { users: User[] };
  expectAllKept(onDisk.users, created, SEED_USERS + N);

  const second = await startMock({ port: 0, persistPath, rateLimit: UNREACHABLE_RATE_LIMIT });
  try {
    expectAllKept(await listUsers(second.url), created, SEED_USERS + N);
  } finally {
    await second.close();
  }
});

test('SIGKILL during writes leaves a valid data file with every acknowledged record, and the mock restarts from it', async () => {
  const persistPath = join(dir, 'state.json');
  const mock = await startMockProcess({ config: { persistPath, rateLimit: UNREACHABLE_RATE_LIMIT } });
  const agent = unboundedAgent();
  const acknowledged: User[] = [];
  let stop = false;
  // 32 writers, each POSTing in a loop until the kill (bounded: at most 200 each, and the deadline below).
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; i < 200 && !stop; i++) {
      try {
        const reply = await send(agent, `${mock.url}/users`, {
          method: 'POST',
          headers: WRITE,
          body: JSON.stringify({ name: `killed ${w}-${i}`, padding: 'x'.repeat(200) }),
          timeoutMs: 5_000,
        });
        if (reply.status === 200) acknowledged.push(JSON.parse(reply.body) as User);
      } catch {
        // The kill cuts the requests in flight: expected, and they were never acknowledged.
      }
    }
  };
  const writers = Array.from({ length: 32 }, (_, w) => writer(w));
  const deadline = Date.now() + 10_000;
  while (acknowledged.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  // Writes are in flight right now: kill without warning.
  await mock.kill('SIGKILL');
  stop = true;
  await Promise.all(writers);
  agent.destroy();
  expect(acknowledged.length, 'writes were acknowledged before the kill').toBeGreaterThanOrEqual(300);

  const text = readFileSync(persistPath, 'utf8');
  let data: { users: User[] } | undefined;
  try {
    data = JSON.parse(text) as { users: User[] };
  } catch {
    data = undefined;
  }
  expect(
    data,
    `the data file is valid JSON (${text.length} bytes; folder: ${readdirSync(dir).join(', ')})`,
  ).toBeDefined();
  const users = data?.users ?? [];
  const onDisk = new Set(users.map((u) => u.id));
  const lost = acknowledged.filter((u) => !onDisk.has(u.id));
  expect(
    lost.map((u) => u.id),
    'no acknowledged write is lost',
  ).toEqual([]);
  expect(new Set(users.map((u) => u.id)).size).toBe(users.length);

  const again = await startMock({ port: 0, persistPath, rateLimit: UNREACHABLE_RATE_LIMIT });
  try {
    expect((await listUsers(again.url)).length).toBe(users.length);
  } finally {
    await again.close();
  }
});
