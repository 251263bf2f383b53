/**
 * Hostile input over raw sockets: no request, however malformed, crashes the mock or gets a 5xx, and what
 * node:http cannot parse is still answered with problem+json (not Node's bare 400).
 */

import { expect, test } from '@playwright/test';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import {
  ADMIN,
  answerBeforeBody,
  authorization,
  call,
  expectNoLeak,
  expectProblem,
  rawExchange,
  rawStatus,
} from './mock-support.ts';

const mock = mockForTests();

/** After every hostile request the server must still answer an ordinary one. */
async function expectAlive(): Promise<void> {
  const answer = await call(mock.url, 'GET', '/users');
  expect(answer.status).toBe(200);
}

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const CASES: Array<[name: string, request: string | Buffer, status: number]> = [
  ['plain garbage', 'hello world\r\n\r\n', 400],
  ['random binary', bytes(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)), 400],
  ['an HTTP/2 preface on an HTTP/1.1 port', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400],
  ['a NUL byte in a header value', 'GET /users HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', 400],
  ['a NUL byte in the path', 'GET /us\0ers HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  [
    'a NUL byte in Authorization',
    'GET /protected HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\0b\r\n\r\n',
    400,
  ],
  [
    'a 20 KB header (limit 16 KiB)',
    `GET /users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
  ],
  [
    'a 20 KB Authorization header',
    `GET /admin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
  ],
  ['an unknown method token', 'FOO /users HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['a lower-case method (methods are case-sensitive)', 'get /users HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['PROPFIND, a method node parses but no route takes', 'PROPFIND /users HTTP/1.1\r\nHost: x\r\n\r\n', 405],
  ['TRACE', 'TRACE /admin HTTP/1.1\r\nHost: x\r\n\r\n', 405],
  ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 400],
  [
    'non-ASCII bytes in the path',
    bytes('GET /us', [0xc3, 0xa9, 0xff], 'ers HTTP/1.1\r\nHost: x\r\n\r\n'),
    400,
  ],
  [
    'non-ASCII bytes in Authorization',
    bytes('GET /protected HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ', [0xc3, 0xa9, 0xff], '\r\n\r\n'),
    400,
  ],
  [
    'non-ASCII bytes in a Basic password',
    bytes('GET /protected HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ', [0xe9], 'bGljZQ==\r\n\r\n'),
    400,
  ],
  ['bad percent-encoding in an id', 'GET /users/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n', 404],
  [
    'bad percent-encoding in a protected id, no credentials',
    'DELETE /users/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n',
    401,
  ],
  ['bad percent-encoding in the query', 'GET /users?name=%ZZ&%%%=1 HTTP/1.1\r\nHost: x\r\n\r\n', 200],
  ['a request line without a leading slash', 'GET users HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['GET *', 'GET * HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ['OPTIONS * (the server as a whole)', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 204],
  ['absolute-form target', 'GET http://x/users/1 HTTP/1.1\r\nHost: x\r\n\r\n', 200],
  ['HTTP/1.1 without Host (RFC 9112 §3.2)', 'GET /users HTTP/1.1\r\n\r\n', 400],
  ['HTTP/1.0 without Host (only HTTP/1.1 must carry one)', 'GET /users HTTP/1.0\r\n\r\n', 200],
  ['two Host lines (RFC 9112 §3.2)', 'GET /users HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n', 400],
  ['two Host lines on the token endpoint', 'GET /oauth/token HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n', 400],
  ['two Host lines before a lower-case method', 'get /users HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n', 400],
  ['a Host with userinfo', 'GET /users HTTP/1.1\r\nHost: u@x\r\n\r\n', 400],
  ['a Host with a path', 'GET /users HTTP/1.1\r\nHost: x/y\r\n\r\n', 400],
  ['a Host with a port that is not digits', 'GET /users HTTP/1.1\r\nHost: x:8o\r\n\r\n', 400],
  ['a Host with an IP-literal never closed', 'GET /users HTTP/1.1\r\nHost: [::1:80\r\n\r\n', 400],
  ['a Host with an IPv6 literal and a port', 'GET /users HTTP/1.1\r\nHost: [::1]:80\r\n\r\n', 200],
  ['an empty Host (a URI without authority, RFC 9112 §3.2)', 'GET /users HTTP/1.1\r\nHost:\r\n\r\n', 200],
  [
    'an absolute-form target with two Host lines',
    'GET http://x/users HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n',
    400,
  ],
  [
    'an Expect other than 100-continue (RFC 9110 §10.1.1)',
    'GET /users HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n',
    417,
  ],
  [
    'an empty Expect (a list of no expectation, RFC 9110 §5.6.1)',
    'GET /users HTTP/1.1\r\nHost: x\r\nExpect: ,\r\n\r\n',
    200,
  ],
  [
    'an Expect other than 100-continue and two Host lines',
    'GET /users HTTP/1.1\r\nHost: x\r\nHost: x\r\nExpect: teapot\r\n\r\n',
    400,
  ],
  ['bare LF line endings', 'GET /users HTTP/1.1\nHost: x\n\n', 400],
  [
    'Content-Length with Transfer-Encoding (smuggling)',
    'POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
  ],
  [
    'two Content-Length values',
    'POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    400,
  ],
  // Credentials are judged as soon as the header section is complete, before any of the body is read (as for a
  // malformed JSON body): the 401 goes out first, then the broken framing closes the connection.
  [
    'a bad chunk size, no credentials',
    'POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    401,
  ],

  [
    'an Upgrade request (no WebSocket here)',
    'GET /users HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    200,
  ],
  ['header folding (obs-fold)', 'GET /users HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n', 400],
  ['a space before the colon', 'GET /users HTTP/1.1\r\nHost: x\r\nAuthorization : Bearer x\r\n\r\n', 400],
];

for (const [name, request, status] of CASES) {
  test(`raw request with ${name} → ${status}, problem+json where an error, and the mock keeps answering`, async () => {
    const response = await rawExchange(mock.url, request);
    expect(rawStatus(response), response.slice(0, 300)).toBe(status);
    if (status >= 400) expect(response.toLowerCase()).toContain('content-type: application/problem+json');
    expectNoLeak(response);
    await expectAlive();
  });
}

test('a bad chunk size with admin credentials → 400 problem+json (the body is read after the credentials pass)', async () => {
  const request = `POST /users HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(ADMIN, 'apikey')}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`;
  const response = await rawExchange(mock.url, request);
  expect(rawStatus(response), response.slice(0, 300)).toBe(400);
  expect(response.toLowerCase()).toContain('content-type: application/problem+json');
  expectNoLeak(response);
  await expectAlive();
});

test('a declared 10 GB Content-Length with admin credentials → 413 without reading the body', async () => {
  const request = `POST /users HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(ADMIN, 'basic')}\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{`;
  const response = await rawExchange(mock.url, request);
  expect(rawStatus(response)).toBe(413);
  await expectAlive();
});

test('a chunked body that grows past the limit → 413 and the connection is closed', async () => {
  const chunk = 'a'.repeat(64 * 1024);
  const body = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(3);
  const request = `POST /users HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(ADMIN, 'apikey')}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`;
  const response = await rawExchange(mock.url, request);
  expect(rawStatus(response)).toBe(413);
  expect(response.toLowerCase()).toContain('connection: close');
  await expectAlive();
});

test('a declared body just over the limit, sent after the 413 came → the 413 is not lost: the connection stays open, is drained, and answers the next request (RFC 9112 §9.6)', async () => {
  const length = 100 * 1024 + 1; // the mock's limit, plus one
  const { first, nextAnswered } = await answerBeforeBody(
    mock.url,
    `POST /users HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(ADMIN, 'apikey')}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
    length,
  );
  // The 413 came before any byte of the body was sent (a proxy still sending would be here).
  expect(rawStatus(first), first.slice(0, 300)).toBe(413);
  expect(first.toLowerCase()).not.toContain('connection: close');
  expect(nextAnswered).toBe(true);
});

test('a client that sends half a body and disconnects does not hurt the server', async () => {
  const request = `POST /users HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization(ADMIN, 'bearer')}\r\nContent-Length: 100\r\n\r\n{"name":`;
  await rawExchange(mock.url, request, 200);
  await expectAlive();
});

test('hostile query strings on GET /users → 200 or 400, never 5xx', async () => {
  const queries = [
    '_where=not-json',
    '_where=[1,2]',
    '_where={"or":5}',
    '_where={"name":{"lt":{"$gt":""}}}',
    '_embed=__proto__',
    '_embed=constructor',
    '_embed=protected',
    '_embed=users',
    '_sort=__proto__',
    '_sort=-name,,,',
    '_page=-1&_per_page=0',
    '_page=1e309&_per_page=NaN',
    '__proto__.polluted=1',
    'constructor.prototype.polluted=1',
    'name:in=',
    'a..b=1',
    'a[0]=1',
    'name=1&name.first=2',
    `${'x'.repeat(4000)}=1`,
    'id:gt=1&id:lt=4',
  ];
  for (const query of queries) {
    const answer = await call(mock.url, 'GET', `/users?${encodeURI(query)}`);
    expect([200, 400], `${query} → ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
    if (answer.status === 400) expectProblem(answer, 400);
    expectNoLeak(answer.text);
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  await expectAlive();
});

test('hostile ids on GET /users/:id → 404, never 5xx', async () => {
  for (const id of ['__proto__', 'constructor', '%00', '%2F', '..', '%E2%80%AE', 'x'.repeat(2000)]) {
    const answer = await call(mock.url, 'GET', `/users/${id}`);
    expectProblem(answer, 404);
  }
});

test('a burst of 200 garbage connections leaves the mock answering', async () => {
  await Promise.all(
    Array.from({ length: 200 }, (_, i) => rawExchange(mock.url, `\x16\x03\x01${i}\r\n\r\n`, 1_000)),
  );
  await expectAlive();
});
