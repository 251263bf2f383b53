/**
 * The Expect field (RFC 9110 §10.1.1, mock/http/expect.ts): a `100 Continue` only for a body the mock is about
 * to read, a refusal answered before the client sends its body, and 417 as problem+json for any other
 * expectation.
 */

import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import { ADMIN, authorization, expectNoLeak, rawExchange } from './mock-support.ts';

const mock = mockForTests();

const BODY = '{"name":"Expecting"}';

/**
 * Sends a head with `Expect: 100-continue`, waits for the first answer, and sends the body only when that
 * answer is `100 Continue` (as curl does). Returns what came before the body and everything at the end.
 */
function expectContinue(head: string): Promise<{ first: string; all: string }> {
  const { hostname, port } = new URL(mock.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let first: string | undefined;
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      if (first === undefined && received.includes('\r\n\r\n')) {
        first = received;
        if (received.startsWith('HTTP/1.1 100 ')) socket.write(BODY);
      }
    });
    socket.on('error', () => {});
    const timer = setTimeout(() => socket.destroy(), 3_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ first: first ?? '', all: received });
    });
    socket.write(head);
    // Closed from this side once the answer had time to come (a kept connection would stay open).
    setTimeout(() => socket.end(), 1_000);
  });
}

const head = (extra: string, length = Buffer.byteLength(BODY)): string =>
  `POST /users HTTP/1.1\r\nHost: x\r\n${extra}Content-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

test('Expect: 100-continue without credentials → the 401 at once, no 100 Continue, and the connection closed', async () => {
  const { first, all } = await expectContinue(head(''));
  expect(first).toMatch(/^HTTP\/1\.1 401 /);
  expect(all).not.toContain('HTTP/1.1 100 ');
  expect(first.toLowerCase()).toContain('connection: close');
  expectNoLeak(all);
});

test('Expect: 100-continue with admin credentials → 100 Continue, then the write answered once the body came', async () => {
  const { first, all } = await expectContinue(head(`Authorization: ${authorization(ADMIN, 'apikey')}\r\n`));
  expect(first).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  expect(all).toMatch(/\r\n\r\nHTTP\/1\.1 200 /);
  expect(all).toContain('"name":"Expecting"');
});

test('Expect: 100-continue with a declared length over the limit → 413 at once, no 100 Continue', async () => {
  const { first, all } = await expectContinue(
    head(`Authorization: ${authorization(ADMIN, 'apikey')}\r\n`, 10_000_000),
  );
  expect(first).toMatch(/^HTTP\/1\.1 413 /);
  expect(all).not.toContain('HTTP/1.1 100 ');
});

test('an Expect other than 100-continue → 417 problem+json, before the credentials are judged', async () => {
  const { first } = await expectContinue(
    'GET /admin HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n',
  );
  expect(first).toMatch(/^HTTP\/1\.1 417 /);
  expect(first.toLowerCase()).toContain('content-type: application/problem+json');
  expect(first).not.toContain('www-authenticate');
});

test('the journal says why a request was refused before any check: host_invalid, expectation_unmet', async () => {
  await rawExchange(mock.url, 'GET /users?q=1 HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n');
  await rawExchange(mock.url, 'GET /admin HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n');
  const control = mock.control;
  if (control === undefined) throw new Error('the control API is on for a loopback mock');
  const res = await fetch(`${control.url}/journal`, {
    headers: { authorization: `Bearer ${control.token}` },
  });
  const { entries } = (await res.json()) as { entries: { path: string; status: number; outcome?: string }[] };
  expect(entries.map(({ path, status, outcome }) => ({ path, status, outcome }))).toEqual(
    expect.arrayContaining([
      { path: '/users', status: 400, outcome: 'host_invalid' },
      { path: '/admin', status: 417, outcome: 'expectation_unmet' },
    ]),
  );
});
