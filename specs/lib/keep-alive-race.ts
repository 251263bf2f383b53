/**
 * The keep-alive race (Node's http docs, `agent.keepAlive`): the server closed an idle connection just as a
 * request went out on it, and the connection was reset before any answer. Both of the suite's Node clients —
 * the checks' (specs/wire/http.ts) and the fuzz engine's (specs/fuzz/clients/node-http.ts) — send such a
 * request once more on a fresh connection when its method allows it (`resendable`). The checks' client refuses
 * to re-send the others and says why; the fuzz client sends them on a connection of their own, never reused.
 */
import type { ClientRequest } from 'node:http';

/** RFC 9110 §9.2.2: the methods a client may re-send automatically when a connection fails. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

export function keepAliveRaced(request: ClientRequest, error: NodeJS.ErrnoException): boolean {
  return request.reusedSocket && error.code === 'ECONNRESET';
}

/** Whether a request of this method may be sent again after the race (RFC 9110 §9.2.2: idempotent ones). */
export function resendable(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method);
}
