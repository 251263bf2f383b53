/**
 * The keep-alive race (Node's http docs, "agent.keepAlive"): a target closes an idle connection just as the
 * next request goes out on it, and the connection is reset before any answer. The checks' client
 * (specs/wire/http.ts) sends an idempotent request once more on a fresh connection (RFC 9110 §9.2.2) and says
 * why it does not for any other. The target (tests/helpers/racing-target.ts) is raw TCP, so the reset
 * comes exactly where a real one would: after the first answer, on the second request of a connection.
 */
import { expect, test } from '@playwright/test';
import { TargetError } from '../../specs/wire/http.ts';
import { localTarget } from '../helpers/local-target.ts';
import { racingTarget } from '../helpers/racing-target.ts';

test('a GET reset on a reused connection is sent once more on a fresh one, by either way of sending', async () => {
  const server = await racingTarget();
  try {
    const target = localTarget(server.url, 1);
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
    const target = localTarget(server.url, 1);
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
