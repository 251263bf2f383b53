/**
 * The de facto `X-Forwarded-For` header read as a proxy chain (RFC 7239 §1 names it among "the non-standard
 * header fields" that `Forwarded` standardizes): comma-separated addresses, left to right, one hop each.
 * Whether any hop is believed is the chain walker's business (proxy-chain.ts), not this file's.
 */

import { type Address, parseAddress } from './cidr.ts';
import type { Hop } from './proxy-chain.ts';

/**
 * The hops of every `X-Forwarded-For` field line, in order (several lines are one list, as Node's own
 * joining with ", " treats them). An entry that is not an address is a hop without one (undefined).
 */
export function xForwardedForHops(lines: readonly string[]): Hop[] {
  return lines.flatMap((line) => line.split(',').map((hop) => parseXffHop(hop.trim())));
}

/**
 * `192.0.2.1`, `2001:db8::1`, and the forms some proxies write with a port: `192.0.2.1:443`,
 * `[2001:db8::1]:443` (RFC 7239 §7.4: IPv6 addresses "may not be enclosed by square brackets" in
 * X-Forwarded-For, so both are taken).
 */
function parseXffHop(hop: string): Address | undefined {
  if (hop.startsWith('[')) {
    const end = hop.indexOf(']');
    return end === -1 ? undefined : parseAddress(hop.slice(1, end));
  }
  const colon = hop.indexOf(':');
  if (colon !== -1 && colon === hop.lastIndexOf(':')) return parseAddress(hop.slice(0, colon));
  return parseAddress(hop);
}
