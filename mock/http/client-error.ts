/**
 * Requests node:http cannot parse never reach the pipeline: the server emits `clientError` (bad request line,
 * invalid header bytes, NUL, oversized header block, timeouts) and `connect` (CONNECT). Node's own answer is a
 * bare `400 Bad Request` without a body; these write the same statuses as problem+json, then close.
 */

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_TYPE, PROBLEMS, type ProblemKind, problemBody } from './problem.ts';

function raw(kind: ProblemKind, detail: string): Buffer {
  const body = problemBody(kind, detail);
  const { status, title } = PROBLEMS[kind];
  const head =
    `HTTP/1.1 ${status} ${title}\r\n` +
    `content-type: ${PROBLEM_TYPE}\r\n` +
    `content-length: ${body.length}\r\n` +
    'access-control-allow-origin: *\r\n' +
    'connection: close\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

const BAD_REQUEST = raw('bad-request', 'The request could not be parsed as HTTP/1.1.');
const HEADERS_TOO_LARGE = raw('header-fields-too-large', 'The request header block is too large.');
const TIMEOUT = raw('request-timeout', 'The request was not received in time.');
const CONNECT = raw('bad-request', 'CONNECT is not supported: this server is not a proxy.');

/** `server.on('clientError', onClientError)`. */
export function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own handler (lib/_http_server.js socketOnError) skips the write when a response already started.
  // `_httpMessage` is Node's internal link from socket to response; it has no public type.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) {
    socket.destroy();
    return;
  }
  const answer =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? HEADERS_TOO_LARGE
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? TIMEOUT
        : BAD_REQUEST;
  socket.end(answer);
}

/** `server.on('connect', onConnect)`: without a listener Node drops the connection without an answer. */
export function onConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  if (socket.writable) socket.end(CONNECT);
  else socket.destroy();
}
