/**
 * A raw TCP target for the keep-alive race (specs/lib/keep-alive-race.ts): it answers the first request of
 * its first connection and resets that connection on its second request; later connections are answered.
 * Listens on 127.0.0.1 only.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';

const OK =
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

/** Answers the first request of its first connection, resets that connection on its second request. */
export async function racingTarget(): Promise<{
  url: string;
  connections: () => number;
  requests: string[];
  close(): void;
}> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    const connection = ++connections;
    let served = 0;
    let buffered = '';
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end = buffered.indexOf('\r\n\r\n');
      while (end !== -1) {
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        requests.push(`${connection}: ${head.split('\r\n')[0]}`);
        served += 1;
        if (connection === 1 && served === 2) {
          socket.resetAndDestroy();
          return;
        }
        socket.write(OK);
        end = buffered.indexOf('\r\n\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    requests,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
