/**
 * Who is asking: the address block lists and rate limits apply to. By default the socket's peer; behind
 * proxies the mock is told to trust, the first untrusted hop of the proxy chain read from the right
 * (proxy-chain.ts). The chain comes from ONE header, the one the operator says their proxies write
 * (`access.proxyHeader`, like nginx's `real_ip_header`): `X-Forwarded-For` (x-forwarded-for.ts, the default)
 * or `Forwarded` (RFC 7239, forwarded.ts). The other header is ignored entirely — not merged, not a fallback:
 * RFC 7239 §8.1 says the header "may be modified … by every node on the way to the server, including the
 * client", and a proxy that only writes one of them passes the other through as the client sent it. §7.4 asks
 * proxies to convert X-Forwarded-For into Forwarded, but many (nginx by default, AWS ALB, Cloudflare) do not:
 * reading a `Forwarded` they never wrote would let the client pick its own address.
 */

import type { IncomingMessage } from 'node:http';
import { type Address, type CidrList, formatAddress, parseAddress } from './cidr.ts';
import { forwardedHops } from './forwarded.ts';
import { type Hop, walkProxyChain } from './proxy-chain.ts';
import type { ProxyHeader } from './settings.ts';
import { xForwardedForHops } from './x-forwarded-for.ts';

/** When the socket is already gone Node reports no address; such a request is counted under this key. */
export const UNKNOWN_ADDRESS = 'unknown';

export type ClientAddress = (req: IncomingMessage) => string;

/**
 * `trusted`: proxies whose `header` is believed; undefined or empty: both headers are ignored and the socket's
 * peer is the client (safe default: a client cannot choose its own address; RFC 7239 §8.1: the header "may be
 * modified … by every node on the way to the server, including the client"). `header`: the one the trusted
 * proxies write (`access.proxyHeader`); the other is never read.
 */
export function createClientAddress(trusted: CidrList | undefined, header: ProxyHeader): ClientAddress {
  const readHops = hopReader(header);
  if (trusted === undefined || trusted.source.length === 0) {
    return (req) => socketAddress(req.socket.remoteAddress);
  }
  const peers = peerCache(trusted);
  return (req) => {
    const peerText = req.socket.remoteAddress;
    const known = peerText === undefined ? undefined : peers(peerText);
    if (known === undefined) return socketAddress(peerText);
    const { peer, text } = known;
    // Not a trusted proxy: the peer is the client. A trusted one that sent no chain: the peer too.
    if (!known.trusted || req.headers[header] === undefined) return text;
    // One entry per field line, in order (Node's req.headers would join repeated lines with ", "); `header`
    // is the lower-case field name, as headersDistinct keys it.
    const lines = nonEmpty(req.headersDistinct[header]);
    return formatAddress(walkProxyChain(peer, readHops(lines), trusted));
  };
}

interface KnownPeer {
  readonly peer: Address;
  /** Its canonical text (formatAddress). */
  readonly text: string;
  /** Whether it is a trusted proxy (its chain header is read). */
  readonly trusted: boolean;
}

/** Peers whose parse is kept (a few hundred kilobytes at most); emptied when full. */
const MAX_PEERS = 4096;

/**
 * The peer's address parsed, and whether it is a trusted proxy, once per peer text: a keep-alive client
 * sends many requests over one socket, and the trusted list is fixed at start-up. Undefined: not an address.
 */
function peerCache(trusted: CidrList): (peerText: string) => KnownPeer | undefined {
  const known = new Map<string, KnownPeer | null>();
  return (peerText) => {
    let entry = known.get(peerText);
    if (entry === undefined) {
      const peer = parseAddress(peerText);
      entry = peer === undefined ? null : { peer, text: formatAddress(peer), trusted: trusted.has(peer) };
      if (known.size >= MAX_PEERS) known.clear();
      known.set(peerText, entry);
    }
    return entry ?? undefined;
  };
}

/**
 * Fixed at start-up: only the configured header's parser is ever called. RFC 7239 §7.4 lets a proxy convert
 * X-Forwarded-For into Forwarded, but whether it does is the operator's knowledge, not something a request
 * can show — so the two are never compared or merged (their lists need not describe the same hops).
 */
function hopReader(header: ProxyHeader): (lines: readonly string[]) => Hop[] {
  if (header === 'x-forwarded-for') return xForwardedForHops;
  if (header === 'forwarded') return forwardedHops;
  // The config schema refuses anything else; this is a programming mistake, not a request's.
  throw new TypeError(
    `proxyHeader: must be one of x-forwarded-for, forwarded, got ${JSON.stringify(header)}`,
  );
}

/** A field line sent empty (`Forwarded:`) adds no hop: the header is taken as absent, as it always was. */
function nonEmpty(lines: readonly string[] | undefined): string[] {
  return lines === undefined ? [] : lines.filter((line) => line.trim() !== '');
}

/** Node's text for the peer, IPv4-mapped IPv6 unwrapped (`::ffff:127.0.0.1` → `127.0.0.1`). */
function socketAddress(text: string | undefined): string {
  if (text === undefined || text === '') return UNKNOWN_ADDRESS;
  if (text.startsWith('::ffff:') && text.includes('.')) return text.slice(7);
  return text;
}
