/**
 * The Expect field (RFC 9110 §10.1.1). Node's server answers `100 Continue` to every `Expect: 100-continue`
 * before the handler runs, and a bare 417 to any other expectation. Here:
 * - `100-continue`: the `100 Continue` goes out only when the body is about to be read (mock/http/
 *   bounded-body.ts), after the credentials and the authorization passed. A refused request is answered at
 *   once, its body never sent ("a client … MAY proceed to send the content", so a body that comes anyway is
 *   read and dropped as any unread body is; Node closes such a connection after the answer).
 * - any other expectation: 417 as problem+json ("A server that receives an Expect field value containing a
 *   member other than 100-continue MAY respond with a 417 (Expectation Failed) status code").
 */

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { problem } from './problem.ts';

/** 417, for a request whose expectation this server cannot meet; the listener answers it after the Host check. */
export const EXPECTATION_FAILED = problem(
  'expectation-failed',
  'The only expectation this server meets is 100-continue (RFC 9110 §10.1.1).',
);

/** The answers of requests still waiting for their `100 Continue`. */
const awaiting = new WeakMap<IncomingMessage, ServerResponse>();
/** Requests with an expectation other than 100-continue. */
const unmet = new WeakSet<IncomingMessage>();

/**
 * Whether an Expect value names an expectation at all: `Expect:` or `Expect: ,` is a list of empty elements,
 * which a recipient accepts and counts as nothing (RFC 9110 §5.6.1), so such a request is served as any other.
 */
function asksSomething(value: string | undefined): boolean {
  return value?.split(',').some((member) => member.trim() !== '') === true;
}

/** Tells a client waiting on `Expect: 100-continue` to send its body; does nothing for any other request. */
export function continueBody(req: IncomingMessage): void {
  const res = awaiting.get(req);
  if (res === undefined) return;
  awaiting.delete(req);
  if (!res.headersSent && !res.writableEnded) res.writeContinue();
}

/** Whether the request carries an expectation other than 100-continue (answered 417). */
export function expectationUnmet(req: IncomingMessage): boolean {
  return unmet.has(req);
}

/**
 * Hands both kinds of request to `handle`, the mock's request listener, instead of Node's own answers: those
 * waiting for a `100 Continue` (sent by continueBody), and those whose expectation is unmet (expectationUnmet).
 */
export function handleExpect(
  server: Server,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaiting.set(req, res);
    handle(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (asksSomething(req.headers.expect)) unmet.add(req);
    handle(req, res);
  });
}
