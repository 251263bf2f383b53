/**
 * A token obtained at run time can expire while the run waits out a limit: the request re-sent after the wait
 * carries the identity's current token, not the one it was first sent with (specs/wire/http.ts).
 */
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { localTarget } from '../helpers/local-target.ts';

test('a 429 waited out → the re-sent request carries the refreshed token, by either way of sending', async () => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(String(req.headers.authorization));
    // Every first request of a pair is limited with a one-second wait; the second is served.
    if (seen.length % 2 === 1) res.writeHead(429, { 'retry-after': '1' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const target = localTarget(url, 4, async (value) => value.replace('stale-token', 'fresh-token'));
    const viaRecord = await target.send({ path: '/a', headers: { Authorization: 'Bearer stale-token' } });
    const viaNode = await target.sendLines({ path: '/b' }, [['Authorization', 'bearer  stale-token']]);
    expect([viaRecord.status, viaNode.status]).toEqual([200, 200]);
    expect(seen).toEqual([
      'Bearer stale-token',
      'Bearer fresh-token',
      'bearer  stale-token',
      'bearer  fresh-token',
    ]);
    // What the check judges (and the evidence records) is the request that got the answer.
    expect(viaRecord.request.headerLines).toContainEqual(['Authorization', 'Bearer fresh-token']);
  } finally {
    server.close();
  }
});
