/**
 * The one walk over a proxy chain, whichever header described it (`Forwarded`, RFC 7239, or
 * `X-Forwarded-For`). Each proxy appends the address it received the request from, so the right-most hops
 * are the ones the nearest proxies wrote; a hop is believed only while every hop to its right (and the
 * socket's peer) is a trusted proxy. RFC 7239 §8.1: "the information in the header field … can only be
 * trusted from the proxies the recipient trusts"; §5.2 "for" is the node that made the request to the proxy.
 */

import type { Address, CidrList } from './cidr.ts';

/** One hop of a chain, left to right as sent: an address, or undefined for anything that names none. */
export type Hop = Address | undefined;

/**
 * The client behind `peer`, which the caller has already found in `trusted`: read `hops` from the right and
 * stop at the first hop that is not a trusted proxy (that is the client; everything left of it may be forged
 * by the client). A hop that carries no address (junk, RFC 7239 `unknown` or an obfuscated identifier, an
 * element without `for=`) cannot be checked against `trusted`: nothing left of it can be believed, and the
 * client is the last trusted hop read — the peer itself when it is the right-most.
 */
export function walkProxyChain(peer: Address, hops: readonly Hop[], trusted: CidrList): Address {
  let current = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop === undefined) break;
    current = hop;
    if (!trusted.has(hop)) break;
  }
  return current;
}
