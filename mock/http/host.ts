/**
 * The Host field, checked before anything else of a request (RFC 9112 §3.2): "A server MUST respond with a 400
 * (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field and to any request
 * message that contains more than one Host header field line or a Host header field with an invalid field
 * value."
 *
 * Node's server keeps the first of several Host lines and takes any value; `requireHostHeader` alone answers a
 * missing one, with a bare 400. The lines are counted from `rawHeaders`, as the credentials stage counts the
 * Authorization lines (mock/pipeline/credentials.ts).
 */

import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import { problem } from './problem.ts';
import type { Reply } from './reply.ts';

const NO_HOST = problem('bad-request', 'An HTTP/1.1 request must carry a Host header.');
const TWO_HOSTS = problem('bad-request', 'More than one Host field line (RFC 9112 §3.2).');
const BAD_HOST = problem('bad-request', 'The Host field is not uri-host [ ":" port ] (RFC 9112 §3.2).');

/** RFC 3986 §3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims ); an IPv4address is one too. */
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
/** RFC 3986 §3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ). */
const IPV_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;
/** RFC 3986 §3.2.3: port = *DIGIT. */
const PORT = /^[0-9]*$/;

/** Host = uri-host [ ":" port ] (RFC 9110 §7.2); uri-host = IP-literal / IPv4address / reg-name. */
export function isHostValue(value: string): boolean {
  let rest: string;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close === -1) return false;
    const literal = value.slice(1, close);
    if (!isIPv6(literal) && !IPV_FUTURE.test(literal)) return false;
    rest = value.slice(close + 1);
  } else {
    const colon = value.indexOf(':');
    const name = colon === -1 ? value : value.slice(0, colon);
    if (!REG_NAME.test(name)) return false;
    rest = colon === -1 ? '' : value.slice(colon);
  }
  return rest === '' || (rest.startsWith(':') && PORT.test(rest.slice(1)));
}

/**
 * The 400 a request's Host lines call for, or undefined. `strict` false is Node's own leniency (the
 * `host-first-wins` defect): only a missing Host is refused.
 */
export function hostProblem(req: IncomingMessage, strict: boolean): Reply | undefined {
  const raw = req.rawHeaders;
  let count = 0;
  let value = '';
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      count += 1;
      value = raw[i + 1] as string;
    }
  }
  if (count === 0) return req.httpVersion === '1.1' ? NO_HOST : undefined;
  if (!strict) return undefined;
  if (count > 1) return TWO_HOSTS;
  return isHostValue(value) ? undefined : BAD_HOST;
}
