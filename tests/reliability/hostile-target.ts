/**
 * A hostile target for the suite: a raw TCP server that reads each request head and then, by path,
 *   /users (public)            answers garbage bytes that are not HTTP, and closes;
 *   /admin                     never answers (the connection stays open until the server closes);
 *   /gatecheck-no-such-path…   resets the connection (TCP RST);
 *   /users/<id>, or two Authorization lines
 *                              sends a 200 head announcing 1 MB, then drips one byte every 100 ms;
 *   anything else (/protected) redirects (307) to the same path on ANOTHER origin — a second local server
 *                              that records whether any request reached it with an Authorization field.
 * Loopback only; close() ends every connection it holds.
 */

import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

export interface OtherOriginHit {
  readonly method: string;
  readonly path: string;
  readonly authorization: boolean;
  /** Any field that looks like a credential (Authorization, Cookie, Proxy-Authorization, X-Api-Key). */
  readonly credentialFields: readonly string[];
}

export interface HostileTarget {
  readonly url: string;
  readonly otherOrigin: string;
  /** What the other origin received: nothing, when the suite never follows a redirect. */
  readonly otherOriginHits: OtherOriginHit[];
  /** Requests the hostile server read, by behaviour. */
  readonly seen: Record<string, number>;
  close(): Promise<void>;
}

const GARBAGE = Buffer.concat([
  Buffer.from('\u0000\u00ffNOT HTTP AT ALL\r\n\r\n', 'latin1'),
  Buffer.alloc(64, 0xfe),
]);
const CREDENTIAL_FIELDS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

function listen(server: Server | HttpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startHostileTarget(): Promise<HostileTarget> {
  const otherOriginHits: OtherOriginHit[] = [];
  const other = createHttpServer((req, res) => {
    const credentialFields: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = (req.rawHeaders[i] ?? '').toLowerCase();
      if (CREDENTIAL_FIELDS.has(name)) credentialFields.push(name);
    }
    otherOriginHits.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization !== undefined,
      credentialFields,
    });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":false}');
  });
  const otherPort = await listen(other);
  const otherOrigin = `http://127.0.0.1:${otherPort}`;

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const seen: Record<string, number> = {};
  const count = (behaviour: string): void => {
    seen[behaviour] = (seen[behaviour] ?? 0) + 1;
  };

  const answer = (socket: Socket, head: string): void => {
    const [requestLine = '', ...fields] = head.split('\r\n');
    const target = requestLine.split(' ')[1] ?? '/';
    const path = target.split('?')[0] ?? '/';
    const authorizationLines = fields.filter((f) => /^authorization\s*:/i.test(f)).length;
    if (authorizationLines > 1 || path.startsWith('/users/')) {
      count('drip');
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n');
      // Bounded: at most 600 bytes (60 s), and close() stops it.
      let left = 600;
      const timer = setInterval(() => {
        if (left-- <= 0 || socket.destroyed) {
          clearInterval(timer);
          timers.delete(timer);
          socket.destroy();
          return;
        }
        socket.write(' ');
      }, 100);
      timers.add(timer);
      return;
    }
    if (path === '/users') {
      count('garbage');
      socket.end(GARBAGE);
      return;
    }
    if (path === '/admin') {
      count('hang');
      return;
    }
    if (path.startsWith('/gatecheck-no-such')) {
      count('reset');
      socket.resetAndDestroy();
      return;
    }
    count('redirect');
    socket.end(
      `HTTP/1.1 307 Temporary Redirect\r\nLocation: ${otherOrigin}${target}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > 64 * 1024) socket.destroy();
        return;
      }
      answered = true;
      answer(socket, buffered.slice(0, end));
    });
  });
  const port = await listen(server);

  return {
    url: `http://127.0.0.1:${port}`,
    otherOrigin,
    otherOriginHits,
    seen,
    async close() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => {
          other.close(() => resolve());
          other.closeAllConnections();
        }),
      ]);
    },
  };
}
