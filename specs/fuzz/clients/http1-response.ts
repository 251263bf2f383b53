/**
 * A minimal HTTP/1.1 response reader for the raw-socket client (RFC 9112 §2–§7): the status line, field
 * lines (obs-fold joined, RFC 9112 §5.2), and the body framed by Transfer-Encoding: chunked,
 * Content-Length, or the end of the connection. Interim 1xx responses are skipped. It reads a response
 * from a target that may be broken, so it never throws: bad framing is reported as "not HTTP".
 */
import { BODY_LIMIT } from './types.ts';

export interface ParsedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type ParseState =
  | { readonly state: 'incomplete' }
  | { readonly state: 'complete'; readonly response: ParsedResponse }
  | { readonly state: 'invalid'; readonly reason: string };

const INCOMPLETE: ParseState = { state: 'incomplete' };
// RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]
const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: [^\r\n]*)?$/;

/** Index just past the blank line that ends the header section (CRLF CRLF, or bare LF LF from a lax sender). */
function headerEnd(buf: Buffer, from: number): { lineEnd: number; bodyStart: number } | undefined {
  const crlf = buf.indexOf('\r\n\r\n', from, 'latin1');
  const lf = buf.indexOf('\n\n', from, 'latin1');
  if (crlf === -1 && lf === -1) return undefined;
  if (lf !== -1 && (crlf === -1 || lf < crlf)) return { lineEnd: lf, bodyStart: lf + 2 };
  return { lineEnd: crlf, bodyStart: crlf + 4 };
}

/** Decodes a chunked body (RFC 9112 §7.1); undefined while incomplete, a string reason when broken. */
function dechunk(buf: Buffer, start: number): { body: Buffer } | 'incomplete' | string {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const eol = buf.indexOf('\r\n', at, 'latin1');
    if (eol === -1) return 'incomplete';
    const sizeText = buf.toString('latin1', at, eol).split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText))
      return `bad chunk size ${JSON.stringify(sizeText.slice(0, 20))}`;
    const size = Number.parseInt(sizeText, 16);
    at = eol + 2;
    if (size === 0) {
      // Trailer section, then the final CRLF.
      const end = buf.indexOf('\r\n\r\n', at - 2, 'latin1');
      return end === -1 ? 'incomplete' : { body: Buffer.concat(parts) };
    }
    if (buf.length < at + size + 2) return 'incomplete';
    parts.push(buf.subarray(at, at + size));
    at += size + 2;
  }
}

/**
 * Reads the first final response in `buf`. `ended`: the peer closed the connection, so a body framed by
 * the end of the connection is complete and anything short of a header section is not a response.
 */
export function parseHttp1Response(buf: Buffer, ended: boolean, method = 'GET'): ParseState {
  let from = 0;
  for (;;) {
    const end = headerEnd(buf, from);
    if (end === undefined) {
      if (!ended)
        return buf.length - from > 65_536
          ? { state: 'invalid', reason: 'header section over 64 KiB' }
          : INCOMPLETE;
      return buf.length === from
        ? { state: 'invalid', reason: 'connection closed without a response' }
        : {
            state: 'invalid',
            reason: `connection closed after ${buf.length} octets, inside the header section`,
          };
    }
    const lines = buf.toString('latin1', from, end.lineEnd).split(/\r?\n/);
    const statusLine = STATUS_LINE.exec(lines[0] ?? '');
    if (!statusLine)
      return {
        state: 'invalid',
        reason: `not an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? '').slice(0, 60))}`,
      };
    const status = Number(statusLine[3]);
    const headers: Record<string, string> = {};
    let last: string | undefined;
    for (const line of lines.slice(1)) {
      if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
        headers[last] = `${headers[last]} ${line.trim()}`; // obs-fold (RFC 9112 §5.2)
        continue;
      }
      const colon = line.indexOf(':');
      if (colon <= 0)
        return { state: 'invalid', reason: `bad field line: ${JSON.stringify(line.slice(0, 60))}` };
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      last = name;
    }
    // RFC 9110 §15.2: interim responses precede the final one.
    if (status >= 100 && status < 200 && status !== 101) {
      from = end.bodyStart;
      continue;
    }
    const rest = buf.subarray(end.bodyStart);
    const done = (body: Buffer): ParseState => ({
      state: 'complete',
      response: { status, headers, body: body.subarray(0, BODY_LIMIT).toString('utf8') },
    });
    // RFC 9112 §6.3: HEAD, 1xx, 204 and 304 have no content.
    if (method === 'HEAD' || status === 204 || status === 304) return done(Buffer.alloc(0));
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      const chunked = dechunk(buf, end.bodyStart);
      // RFC 9112 §8: a chunked body without its last chunk is an incomplete message, not a response.
      if (chunked === 'incomplete')
        return ended ? { state: 'invalid', reason: 'chunked body cut before its last chunk' } : INCOMPLETE;
      if (typeof chunked === 'string') return { state: 'invalid', reason: chunked };
      return done(chunked.body);
    }
    const lengthText = headers['content-length'];
    if (lengthText !== undefined) {
      const first = lengthText.split(',')[0]?.trim() ?? '';
      if (!/^\d{1,12}$/.test(first))
        return { state: 'invalid', reason: `bad Content-Length ${JSON.stringify(lengthText)}` };
      const length = Number(first);
      if (rest.length >= length) return done(rest.subarray(0, length));
      // RFC 9112 §8: fewer octets than Content-Length announced is an incomplete message.
      return ended
        ? { state: 'invalid', reason: `body cut: ${rest.length} of ${length} octets` }
        : INCOMPLETE;
    }
    return ended ? done(rest) : INCOMPLETE;
  }
}
