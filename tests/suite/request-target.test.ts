/**
 * What the checks' client puts on the wire (specs/wire/http.ts, specs/lib/request-target.ts): a spelling of a
 * path as written — dot segments, doubled slashes, `#`, `\`, percent-encodings untouched — and a method as
 * written (a lower-case `get`) over a raw socket; the replay line names the same target.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { curlLine } from '../../specs/lib/replay.ts';
import {
  normalisedAway,
  normalisedTarget,
  requestTargetAsWritten,
  wireTarget,
} from '../../specs/lib/request-target.ts';
import { localTarget } from '../helpers/local-target.ts';

/** A loopback server that records each request line and answers 200 "ok", closing the connection. */
async function recordingServer(): Promise<{ url: string; lines: string[]; close(): void }> {
  const lines: string[] = [];
  const server = createServer((socket) => {
    let head = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      lines.push(head.split('\r\n')[0] ?? '');
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok',
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, lines, close: () => server.close() };
}

test('the target as written: after the authority, nothing normalised; printable ASCII only, else the URL parser’s', () => {
  const base = 'http://127.0.0.1:1';
  expect(requestTargetAsWritten(`${base}/./admin`)).toBe('/./admin');
  expect(requestTargetAsWritten(`${base}/x/../admin`)).toBe('/x/../admin');
  expect(requestTargetAsWritten(`${base}`)).toBe('/');
  expect(requestTargetAsWritten(`${base}?q=1`)).toBe('/?q=1');
  expect(requestTargetAsWritten(`${base}/api//admin#x`)).toBe('/api//admin#x');
  expect(normalisedTarget(`${base}/x/../admin#x`)).toBe('/admin');
  for (const path of ['/./admin', '/x/../admin', '/admin#x', '/admin\\', '/%2e/admin']) {
    expect(wireTarget(`${base}${path}`), path).toBe(path);
  }
  expect(normalisedAway(`${base}/./admin`)).toBe(true);
  expect(normalisedAway(`${base}/admin?x=1`)).toBe(false);
  // A space or a non-ASCII character cannot go on the wire as written: the URL parser percent-encodes it.
  expect(wireTarget(`${base}/users?name=Bob User`)).toBe('/users?name=Bob%20User');
  expect(wireTarget(`${base}/caf\u00e9`)).toBe('/caf%C3%A9');
  expect(() => requestTargetAsWritten('/relative')).toThrow(TypeError);
});

test('spellings go out as written, and a lower-case method as written over a raw socket', async () => {
  const server = await recordingServer();
  try {
    const target = localTarget(server.url, 2);
    const spellings = [
      '/./admin',
      '/gatecheck/../admin',
      '//admin',
      '/admin#gatecheck',
      '/admin\\',
      '/%2e%2E/admin',
    ];
    for (const path of spellings) {
      const ex = await target.send({ path, headers: { Authorization: 'Bearer abc' } });
      expect(ex.status, path).toBe(200);
    }
    const lower = await target.send({
      method: 'get',
      exactMethod: true,
      path: '/admin',
      headers: { Authorization: 'Bearer abc' },
    });
    expect(lower.status).toBe(200);
    expect(lower.body).toBe('ok');
    expect(lower.request.method).toBe('get');
    // Without exactMethod the method is upper-cased, as before.
    await target.send({ method: 'propfind', path: '/admin' });
    expect(server.lines).toEqual([
      ...spellings.map((path) => `GET ${path} HTTP/1.1`),
      'get /admin HTTP/1.1',
      'PROPFIND /admin HTTP/1.1',
    ]);
    await expect(
      target.send({ method: 'get', exactMethod: true, path: '/admin', json: { a: 1 } }),
      'a raw-socket method carries no body',
    ).rejects.toThrow(TypeError);
  } finally {
    server.close();
  }
});

test('the replay of a spelling a URL parser would normalise names the target curl must send', () => {
  const line = curlLine({ method: 'GET', url: 'http://h:1/x/../admin', headerLines: [] });
  expect(line).toBe(`curl -i -sS -X GET 'http://h:1/x/../admin' --request-target '/x/../admin'`);
  expect(curlLine({ method: 'GET', url: 'http://h:1/admin', headerLines: [] })).toBe(
    `curl -i -sS -X GET 'http://h:1/admin'`,
  );
});
