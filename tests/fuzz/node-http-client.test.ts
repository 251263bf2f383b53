/** The fuzz engine's node:http client: a case held no longer than its timeout, and the keep-alive race survived. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createNodeHttpClient } from '../../specs/fuzz/clients/node-http.ts';
import { racingTarget } from '../helpers/racing-target.ts';

test('a target that dribbles its body one byte at a time → dropped at the deadline, not held by the idle timer', async () => {
  const timers: NodeJS.Timeout[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    // A byte every 100 ms keeps the socket busy, so an idle timeout of 400 ms never fires.
    timers.push(setInterval(() => res.write('x'), 100));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const client = createNodeHttpClient({ timeoutMs: 400, maxSockets: 1 });
  try {
    const started = Date.now();
    const outcome = await client.send({ method: 'GET', url: `http://127.0.0.1:${port}/`, authorization: [] });
    expect(outcome.kind).toBe('dropped');
    expect(outcome.kind === 'dropped' && outcome.error).toContain('no complete response within 400 ms');
    // Generous bound: the point is that it ends at all (an idle timer would wait for the whole 100 s body).
    expect(Date.now() - started).toBeLessThan(10_000);
  } finally {
    for (const timer of timers) clearInterval(timer);
    client.close();
    server.closeAllConnections();
    server.close();
  }
});

/** Sends `requests` in turn to a fresh racing target; the outcomes' kinds and what the target received. */
async function againstRacingTarget(
  requests: readonly (readonly [method: string, path: string])[],
): Promise<{ kinds: string[]; received: string[] }> {
  const server = await racingTarget();
  const client = createNodeHttpClient({ timeoutMs: 2000, maxSockets: 1 });
  try {
    const kinds: string[] = [];
    for (const [method, path] of requests) {
      kinds.push((await client.send({ method, url: `${server.url}${path}`, authorization: [] })).kind);
    }
    return { kinds, received: server.requests };
  } finally {
    client.close();
    server.close();
  }
}

test('a case reset on a reused keep-alive connection is sent once more on a fresh one, not dropped', async () => {
  const { kinds, received } = await againstRacingTarget([
    ['GET', '/a'],
    ['GET', '/b'],
  ]);
  expect(kinds).toEqual(['response', 'response']);
  expect(received).toEqual(['1: GET /a HTTP/1.1', '1: GET /b HTTP/1.1', '2: GET /b HTTP/1.1']);
});

test('a POST case goes out on a connection of its own: never on a reused one, so never reset there nor sent twice', async () => {
  const { kinds, received } = await againstRacingTarget([
    ['GET', '/a'],
    ['POST', '/b'],
    ['POST', '/c'],
  ]);
  expect(kinds).toEqual(['response', 'response', 'response']);
  // RFC 9110 §9.2.2: each POST once, each on a new connection (the first connection would have reset it).
  expect(received).toEqual(['1: GET /a HTTP/1.1', '2: POST /b HTTP/1.1', '3: POST /c HTTP/1.1']);
});
