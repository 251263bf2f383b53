/**
 * The keep-alive race (Node's http docs, "agent.keepAlive"): a target closes an idle connection just as the
 * next request goes out on it, and the connection is reset before any answer. The checks' client
 * (specs/lib/http.ts) sends an idempotent request once more on a fresh connection (RFC 9110 §9.2.2) and says
 * why it does not for any other. The target here is raw TCP, so the reset comes exactly where a real one
 * would: after the first answer, on the second request of the same connection.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import { Budget } from '../../specs/lib/budget.ts';
import { Target, TargetError } from '../../specs/lib/http.ts';
import { RunCoordinator } from '../../specs/run/coordinator.ts';
import { inProcessPort } from '../../specs/run/port.ts';
import { Scheduler } from '../../specs/run/scheduler.ts';

const OK =
  'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

/** Answers the first request of its first connection, resets that connection on its second request. */
async function racingTarget(): Promise<{
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

function targetAt(url: string): Target {
  const scheduler = new Scheduler(
    inProcessPort(new RunCoordinator()),
    url,
    { maxRequests: 100, maxSeconds: 60 },
    () => '',
    1,
  );
  return new Target({ baseUrl: url, budget: new Budget(1), scheduler, timeoutMs: 5000 });
}

test('a GET reset on a reused connection is sent once more on a fresh one, by either way of sending', async () => {
  const server = await racingTarget();
  try {
    const target = targetAt(server.url);
    const first = await target.send({ path: '/a' });
    const second = await target.sendLines({ path: '/b' }, [['Accept', 'text/plain']]);
    expect([first.status, second.status, second.body]).toEqual([200, 200, 'ok']);
    expect(server.requests).toEqual(['1: GET /a HTTP/1.1', '1: GET /b HTTP/1.1', '2: GET /b HTTP/1.1']);
    expect(server.connections()).toBe(2);
  } finally {
    server.close();
  }
});

test('a POST reset on a reused connection is not re-sent (RFC 9110 §9.2.2), and the error says why', async () => {
  const server = await racingTarget();
  try {
    const target = targetAt(server.url);
    expect((await target.send({ path: '/a' })).status).toBe(200);
    const failed = await target.send({ method: 'POST', path: '/users', json: { name: 'x' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(TargetError);
    expect((failed as TargetError).message).toMatch(
      /^no answer from POST http:\/\/127\.0\.0\.1:\d+\/users: .*reused keep-alive connection; not re-sent, POST is not idempotent/,
    );
    expect(server.requests).toEqual(['1: GET /a HTTP/1.1', '1: POST /users HTTP/1.1']);
    expect(server.connections()).toBe(1);
  } finally {
    server.close();
  }
});
