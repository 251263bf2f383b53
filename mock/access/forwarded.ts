/**
 * The `Forwarded` request header (RFC 7239) read as a proxy chain: one hop per forwarded-element, left to
 * right, each the address in its `for=` parameter (§5.2) or undefined. The list syntax is parsed by
 * forwarded-parse (RFC 7239 §4: token and quoted-string values with `\` escapes, case-insensitive parameter
 * names, elements separated by commas, pairs by semicolons); the `node` inside `for=` is checked here (§6).
 * Whether any hop is believed is the chain walker's business (proxy-chain.ts), not this file's.
 *
 * RFC 7239 §4:
 *   Forwarded         = 1#forwarded-element
 *   forwarded-element = [ forwarded-pair ] *( ";" [ forwarded-pair ] )
 *   forwarded-pair    = token "=" value
 *   value             = token / quoted-string
 */

import parseForwarded from 'forwarded-parse';
import { type Address, parseAddress } from './cidr.ts';
import type { Hop } from './proxy-chain.ts';

/**
 * A field line that does not parse whole is retried from each of its last few commas (right to left), and
 * the longest tail that parses is kept: proxies append their element to the right (RFC 7239 §7.1: "the list
 * may be split over multiple header fields", or one line grows by `, for=…`), so a client's broken prefix —
 * an unclosed quote, say — must not swallow the element a trusted proxy wrote after it. Bounded so a header
 * of commas costs a handful of parses, not one per comma.
 */
const MAX_RECOVERY_COMMAS = 16;

/**
 * RFC 7239 §6:
 *   node      = nodename [ ":" node-port ]
 *   nodename  = IPv4address / "[" IPv6address "]" / "unknown" / obfnode
 *   obfnode   = "_" 1*( ALPHA / DIGIT / "." / "_" / "-")
 *   node-port = port / obfport
 *   port      = 1*5DIGIT
 *   obfport   = "_" 1*(ALPHA / DIGIT / "." / "_" / "-")
 * ABNF literals are case-insensitive (RFC 5234 §2.3), so `UNKNOWN` is `unknown`.
 */
const OBFUSCATED = /^_[A-Za-z0-9._-]+$/;
const NODE_PORT = /^(?:\d{1,5}|_[A-Za-z0-9._-]+)$/;

/**
 * One `for=` value (already unquoted and unescaped, §5.2: "after potential quoted-string unescaping, conforms
 * to the node ABNF"): its address; `'hidden'` for `unknown` (§6.2) and obfuscated identifiers (§6.3), which
 * name a node but carry no address; undefined for anything that is not a `node` — a bare IPv6 address
 * (§6.1: "an IPv6 address is always enclosed in square brackets"), a zone id, a port that is not 1–5 digits,
 * a host name. Never throws.
 */
export function parseForwardedNode(value: string): Address | 'hidden' | undefined {
  let name = value;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return undefined;
    name = value.slice(0, end + 1);
    const rest = value.slice(end + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return undefined;
      port = rest.slice(1);
    }
  } else {
    const colon = value.indexOf(':');
    if (colon !== -1) {
      name = value.slice(0, colon);
      port = value.slice(colon + 1);
    }
  }
  if (port !== undefined && !NODE_PORT.test(port)) return undefined;
  if (name.toLowerCase() === 'unknown' || OBFUSCATED.test(name)) return 'hidden';
  if (name.startsWith('[')) {
    const inner = name.slice(1, -1);
    // RFC 3986's IPv6address has no zone id (RFC 6874 adds one to URIs only): refused, not silently dropped.
    if (!inner.includes(':') || inner.includes('%')) return undefined;
    return parseAddress(inner);
  }
  // Unbracketed, only IPv4address: a `:` was taken as the port separator above, so IPv6 cannot get here.
  return parseAddress(name);
}

/**
 * The hops of every `Forwarded` field line, in order (RFC 7239 §7.1: several lines are one list, and
 * headersDistinct keeps them apart so one broken line does not spoil the others). An element without `for=`
 * (only `by=`, `proto=`, …), `for=unknown`, an obfuscated `for=`, or a part of a line that does not parse is
 * a hop without an address (undefined). Never throws.
 */
export function forwardedHops(lines: readonly string[]): Hop[] {
  const hops: Hop[] = [];
  for (const line of lines) {
    for (const element of parseLine(line.trim())) {
      const node = element?.for === undefined ? undefined : parseForwardedNode(element.for);
      hops.push(node === 'hidden' ? undefined : node);
    }
  }
  return hops;
}

/** The elements of one line; undefined stands for a prefix that does not parse (see MAX_RECOVERY_COMMAS). */
function parseLine(line: string): Array<Record<string, string> | undefined> {
  const whole = tryParse(line);
  if (whole !== undefined) return whole;
  let tail: Array<Record<string, string>> | undefined;
  let at = line.length;
  for (let n = 0; n < MAX_RECOVERY_COMMAS && at > 0; n++) {
    at = line.lastIndexOf(',', at - 1);
    if (at === -1) break;
    // Going left, each success is a longer tail than the last one.
    tail = tryParse(line.slice(at + 1).trim()) ?? tail;
  }
  return tail === undefined ? [undefined] : [undefined, ...tail];
}

/** forwarded-parse throws a ParseError on any syntax it refuses (no result for bad input, here). */
function tryParse(text: string): Array<Record<string, string>> | undefined {
  if (text === '') return undefined;
  try {
    return parseForwarded(text);
  } catch {
    return undefined;
  }
}
