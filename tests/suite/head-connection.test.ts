/**
 * HEAD on a connection of its own (issue #37): a server that wrongly sends a body after a HEAD answer leaves
 * those bytes on a kept-alive connection, and the *next* request on it reads them as its answer — a parse
 * error charged to another check. The checks' client sends each HEAD on a fresh connection, closed after it:
 * the HEAD body is the HEAD rule's to judge, the next check gets its own answer.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import { localTarget } from '../helpers/local-target.ts';

/** Answers every request on the connection; a HEAD with a 5-byte body it must not send. */
async function headWithBody(): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        const close = /\r\nconnection: close/i.test(head);
        const keep = close ? 'Connection: close' : 'Connection: keep-alive';
        // RFC 9110 §9.3.2: a HEAD answer has no content; this server sends one anyway.
        socket.write(
          head.startsWith('HEAD ')
            ? `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n${keep}\r\n\r\nhello`
            : `HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${keep}\r\n\r\nok`,
        );
        if (close) socket.end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

test('a HEAD answer that wrongly carries a body does not spoil the next request on the client', async () => {
  const server = await headWithBody();
  try {
    const target = localTarget(server.url, 1);
    for (let i = 0; i < 3; i++) {
      const head = await target.send({ method: 'HEAD', path: '/protected' });
      expect(head.status).toBe(200);
      const get = await target.send({ method: 'GET', path: '/protected' });
      expect(get.status).toBe(200);
      expect(get.body).toBe('ok');
    }
  } finally {
    server.close();
  }
});
