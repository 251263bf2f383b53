/**
 * Who is asking: the address block lists and rate limits apply to. By default the socket's peer; behind
 * proxies the mock is told to trust, the first untrusted hop of `X-Forwarded-For` read from the right
 * (each proxy appends the address it received the request from, so the right-most entries are the ones a
 * trusted proxy wrote, and everything left of the first untrusted one may be forged by the client).
 */

import type { IncomingMessage } from 'node:http';
import { type Address, type CidrList, formatAddress, parseAddress } from './cidr.ts';

/** When the socket is already gone Node reports no address; such a request is counted under this key. */
export const UNKNOWN_ADDRESS = 'unknown';

export type ClientAddress = (req: IncomingMessage) => string;

/**
 * `trusted`: proxies whose `X-Forwarded-For` is believed; undefined or empty: the header is ignored and the
 * socket's peer is the client (safe default: a client cannot choose its own address).
 */
export function createClientAddress(trusted: CidrList | undefined): ClientAddress {
  if (trusted === undefined || trusted.source.length === 0) {
    return (req) => socketAddress(req.socket.remoteAddress);
  }
  return (req) => {
    const peerText = req.socket.remoteAddress;
    const peer = peerText === undefined ? undefined : parseAddress(peerText);
    if (peer === undefined) return socketAddress(peerText);
    if (!trusted.has(peer)) return formatAddress(peer);
    const header = req.headers['x-forwarded-for'];
    if (header === undefined || header === '') return formatAddress(peer);
    // Node joins repeated X-Forwarded-For lines with ", ", in order: one list either way.
    const hops = (typeof header === 'string' ? header : header.join(',')).split(',');
    let current: Address = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseHop((hops[i] as string).trim());
      // A hop that is not an address: nothing to its left can be believed; the last trusted hop is the client.
      if (hop === undefined) break;
      current = hop;
      if (!trusted.has(hop)) break;
    }
    return formatAddress(current);
  };
}

/** Node's text for the peer, IPv4-mapped IPv6 unwrapped (`::ffff:127.0.0.1` → `127.0.0.1`). */
function socketAddress(text: string | undefined): string {
  if (text === undefined || text === '') return UNKNOWN_ADDRESS;
  if (text.startsWith('::ffff:') && text.includes('.')) return text.slice(7);
  return text;
}

/** `192.0.2.1`, `2001:db8::1`, and the forms some proxies write with a port: `192.0.2.1:443`, `[2001:db8::1]:443`. */
function parseHop(hop: string): Address | undefined {
  if (hop.startsWith('[')) {
    const end = hop.indexOf(']');
    return end === -1 ? undefined : parseAddress(hop.slice(1, end));
  }
  const colon = hop.indexOf(':');
  if (colon !== -1 && colon === hop.lastIndexOf(':')) return parseAddress(hop.slice(0, colon));
  return parseAddress(hop);
}
