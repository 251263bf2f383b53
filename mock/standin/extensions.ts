/**
 * What a document adds for the mock standing in for it (docs/package.md "What a document can add"), read as
 * the default mock's policy file gives it:
 * - `x-gatecheck-blocked`: each client's headers join the block lists — an address in `X-Forwarded-For` or
 *   `Forwarded` (RFC 7239 `for=`) a blocked address, believed from the loopback proxies the mock trusts by
 *   default; any other header a country header naming a blocked country — and its `closed` operation is
 *   closed to every client (403, seed §7 cause 5);
 * - `x-gatecheck-fault`: requests carrying its headers (at its operation, when it names one) meet a fault:
 *   500 problem+json (seed §7, RFC 9110 §15.6.1).
 * A document that states neither is served back stating the mock's own (document.ts), so that init's profile
 * of it runs the access.403.* and server.500.fault rules against the mock.
 */
import { isRecord } from '../../shared/is-record.ts';
import {
  type BlockedExtension,
  type FaultExtension,
  X_BLOCKED,
  X_FAULT,
} from '../../shared/openapi-extensions.ts';
import type { AccessSettings } from '../access/settings.ts';
import { problem } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { note } from '../pipeline/notes.ts';

type Json = Record<string, unknown>;

/** The closed operation of `x-gatecheck-blocked`, as the document's path and an upper-case method. */
export function closedOperation(doc: Json): { path: string; method: string } | undefined {
  const x = doc[X_BLOCKED];
  const closed = isRecord(x) && isRecord(x.closed) ? x.closed : undefined;
  if (typeof closed?.path !== 'string') return undefined;
  return {
    path: closed.path,
    method: typeof closed.method === 'string' ? closed.method.toUpperCase() : 'GET',
  };
}

/** The address a forwarding header names: the last hop of X-Forwarded-For, RFC 7239's `for=` (brackets off). */
function addressIn(name: string, value: string): string | undefined {
  if (name === 'x-forwarded-for') return value.split(',').at(-1)?.trim() || undefined;
  const found = /for\s*=\s*"?\[?([^\]";,]+)\]?"?/i.exec(value);
  return found?.[1];
}

/** `access` with the clients of `x-gatecheck-blocked` added to its lists (a single address: /32 or /128). */
export function blockedAccess(doc: Json, access: AccessSettings): AccessSettings {
  const x = doc[X_BLOCKED];
  const clients = isRecord(x) && Array.isArray(x.clients) ? x.clients.filter(isRecord) : [];
  let out = access;
  for (const client of clients) {
    const headers = isRecord(client.headers) ? client.headers : {};
    for (const [field, raw] of Object.entries(headers)) {
      const name = field.toLowerCase();
      const value = String(raw);
      if (name === 'x-forwarded-for' || name === 'forwarded') {
        const address = addressIn(name, value);
        if (address === undefined) continue;
        out = {
          ...out,
          proxyHeader: name,
          blockedIps: [...out.blockedIps, `${address}/${address.includes(':') ? 128 : 32}`],
        };
      } else
        out = {
          ...out,
          countryHeader: field,
          blockedCountries: [...out.blockedCountries, value.toUpperCase()],
        };
    }
  }
  return out;
}

export interface DocumentFault {
  /** The 500 for a request that carries the document's fault headers, else undefined. */
  check(exchange: Exchange, template: string): Reply | undefined;
}

/** `x-gatecheck-fault` as a check the stand-in's handler runs first; undefined when the document states none. */
export function documentFault(doc: Json, prefix: string): DocumentFault | undefined {
  const x = doc[X_FAULT];
  if (!isRecord(x) || !isRecord(x.headers)) return undefined;
  const headers = Object.entries(x.headers).map(([k, v]) => [k.toLowerCase(), String(v)] as const);
  if (headers.length === 0) return undefined;
  const at = typeof x.path === 'string' ? `${prefix}${x.path}` : undefined;
  const method = typeof x.method === 'string' ? x.method.toUpperCase() : undefined;
  const reply = problem(
    'internal-error',
    'The mock met an unexpected condition and could not fulfil the request (fault injected by the document’s x-gatecheck-fault).',
    undefined,
    { code: 'fault_injected' },
  );
  return {
    check(exchange, template) {
      if (at !== undefined && (template !== at || (method !== undefined && exchange.method !== method)))
        return undefined;
      if (!headers.every(([name, value]) => exchange.req.headers[name] === value)) return undefined;
      note(exchange, 'fault_injected', 'x-gatecheck-fault of the document');
      return reply;
    },
  };
}

/** What the served document states when the document states none (mock/openapi/extensions.ts's forms). */
export interface ServedExtensions {
  readonly blocked: BlockedExtension | undefined;
  readonly fault: FaultExtension | undefined;
}
