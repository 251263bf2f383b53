/** The raw-socket client's response reader (specs/fuzz/clients/http1-response.ts): framing, interim responses, junk. */
import { expect, test } from '@playwright/test';
import { parseHttp1Response } from '../../specs/fuzz/clients/http1-response.ts';

const buf = (text: string) => Buffer.from(text, 'latin1');

test('a Content-Length body is complete once all its octets arrived, not before', () => {
  const full =
    'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm="x"\r\nContent-Length: 5\r\n\r\nhello';
  expect(parseHttp1Response(buf(full.slice(0, -2)), false)).toEqual({ state: 'incomplete' });
  const done = parseHttp1Response(buf(full), false);
  expect(done).toEqual({
    state: 'complete',
    response: {
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="x"', 'content-length': '5' },
      body: 'hello',
    },
  });
});

test('a chunked body is decoded, with chunk extensions and trailers', () => {
  const text =
    'HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n';
  expect(parseHttp1Response(buf(text.slice(0, 40)), false)).toEqual({ state: 'incomplete' });
  const done = parseHttp1Response(buf(text), false);
  expect(done.state === 'complete' && done.response.body).toBe('abcde');
});

test('a body without length ends with the connection', () => {
  const text = 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\npartial';
  expect(parseHttp1Response(buf(text), false)).toEqual({ state: 'incomplete' });
  const done = parseHttp1Response(buf(text), true);
  expect(done.state === 'complete' && done.response.body).toBe('partial');
});

test('interim 100 responses are skipped; repeated fields are joined; obs-fold is unfolded', () => {
  const text =
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm="a"\r\nwww-authenticate: Bearer\r\nX-Long: one\r\n two\r\nContent-Length: 0\r\n\r\n';
  const done = parseHttp1Response(buf(text), false);
  expect(done).toEqual({
    state: 'complete',
    response: {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="a", Bearer', 'x-long': 'one two', 'content-length': '0' },
      body: '',
    },
  });
});

test('HEAD, 204 and 304 have no body whatever Content-Length says', () => {
  const done = parseHttp1Response(buf('HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n'), false);
  expect(done.state === 'complete' && done.response.status).toBe(204);
  const head = parseHttp1Response(buf('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n'), false, 'HEAD');
  expect(head.state).toBe('complete');
});

test('what is not an HTTP response is reported as such, never thrown', () => {
  expect(parseHttp1Response(buf(''), true)).toEqual({
    state: 'invalid',
    reason: 'connection closed without a response',
  });
  expect(parseHttp1Response(buf('HTTP/1.1 40'), true).state).toBe('invalid');
  expect(parseHttp1Response(buf('SSH-2.0-OpenSSH\r\n\r\n'), false).state).toBe('invalid');
  expect(parseHttp1Response(buf('HTTP/1.1 200 OK\r\nno colon here\r\n\r\n'), false).state).toBe('invalid');
  expect(parseHttp1Response(buf('HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n'), false).state).toBe(
    'invalid',
  );
  expect(
    parseHttp1Response(buf('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'), false).state,
  ).toBe('invalid');
});

test('a lax sender’s bare-LF header section is still read', () => {
  const done = parseHttp1Response(buf('HTTP/1.1 400 Bad Request\nConnection: close\n\n'), true);
  expect(done.state === 'complete' && done.response.status).toBe(400);
});

test('a connection that ends short of Content-Length or of the last chunk is a cut message, not a response (RFC 9112 §8)', () => {
  const short = 'HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\npartial';
  expect(parseHttp1Response(buf(short), true)).toEqual({
    state: 'invalid',
    reason: 'body cut: 7 of 1000000 octets',
  });
  const unterminated = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n';
  expect(parseHttp1Response(buf(unterminated), true)).toEqual({
    state: 'invalid',
    reason: 'chunked body cut before its last chunk',
  });
});
