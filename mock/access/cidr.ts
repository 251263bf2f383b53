/**
 * IP addresses and CIDR lists with ipaddr.js (IPv4 and IPv6), parsed strictly and compiled once at start-up.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2) is the IPv4 address it carries, on both
 * sides: in lists (`::ffff:192.0.2.0/120` ≡ `192.0.2.0/24`) and in requests (a dual-stack socket reports IPv4
 * peers that way).
 */

import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Strict parsing: IPv4 only as four decimal octets (ipaddr.js alone also takes `0x7f.1` or `127.1`, forms no
 * proxy writes and a block list must not be fooled by), or any IPv6 form (RFC 4291 §2.2), a zone id dropped.
 * Returns undefined for anything else; never throws.
 */
export function parseAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return undefined;
  const v6 = ipaddr.IPv6.parse(text);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  v6.zoneId = undefined;
  return v6;
}

/** The canonical text of an address: dotted IPv4, RFC 5952 IPv6 (`2001:db8::1`). */
export function formatAddress(address: Address): string {
  return address.kind() === 'ipv4' ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
}

export interface CidrList {
  /** The ranges as given, for messages and the control API. */
  readonly source: readonly string[];
  /** True when the address lies in one of the ranges. */
  has(address: Address): boolean;
}

/**
 * `["192.0.2.0/24", "2001:db8::/32", "198.51.100.7"]` (a bare address is a /32 or /128). Throws TypeError
 * naming the entry (`where[i]`) for anything else; the caller turns it into a one-line ConfigError.
 */
export function compileCidrList(list: readonly string[], where: string): CidrList {
  const v4: Array<[ipaddr.IPv4, number]> = [];
  const v6: Array<[ipaddr.IPv6, number]> = [];
  list.forEach((entry, index) => {
    const range = parseRange(entry.trim());
    if (range === undefined) {
      throw new TypeError(
        `${where}[${index}]: "${entry}" is not an IPv4 or IPv6 address or CIDR range (e.g. 192.0.2.0/24, 2001:db8::/32)`,
      );
    }
    if (range[0].kind() === 'ipv4') v4.push(range as [ipaddr.IPv4, number]);
    else v6.push(range as [ipaddr.IPv6, number]);
  });
  return {
    source: [...list],
    has(address) {
      // A linear scan: lists are short (a handful of ranges); each match is a few integer comparisons.
      if (address.kind() === 'ipv4') {
        for (const range of v4) if ((address as ipaddr.IPv4).match(range)) return true;
        return false;
      }
      for (const range of v6) if ((address as ipaddr.IPv6).match(range)) return true;
      return false;
    },
  };
}

function parseRange(entry: string): [Address, number] | undefined {
  const slash = entry.indexOf('/');
  const address = parseAddress(slash === -1 ? entry : entry.slice(0, slash));
  if (address === undefined) return undefined;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (slash === -1) return [address, max];
  const text = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(text)) return undefined;
  let bits = Number(text);
  // `::ffff:192.0.2.0/120` was parsed to IPv4 above: its prefix counts the 96 bits of the mapping too.
  if (address.kind() === 'ipv4' && entry.slice(0, slash).includes(':')) bits -= 96;
  if (bits < 0 || bits > max) return undefined;
  return [address, bits];
}
