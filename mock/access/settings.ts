/**
 * Block-list settings (config file `access`, CLI `--trust-proxy`, `--proxy-header`, `--block-ip`,
 * `--block-country`). Compiled once at start-up (CIDR matchers), so a request pays for what is configured and
 * nothing else.
 */

/** The one request header the trusted proxies write the chain into (mock/access/client-address.ts). */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

export interface AccessSettings {
  /**
   * Proxies (CIDR list) whose `proxyHeader` is believed: the client is then the first untrusted hop from the
   * right. Empty (default): the socket's peer is the client and both headers are ignored.
   */
  readonly trustedProxies: readonly string[];
  /**
   * Which header the trusted proxies write — `x-forwarded-for` (default: nginx, AWS ALB, Cloudflare) or
   * `forwarded` (RFC 7239) — as nginx's `real_ip_header` says it. Only that one is read; the other is ignored,
   * never a fallback: a proxy passes through what it does not write, so the client would choose it.
   */
  readonly proxyHeader: ProxyHeader;
  /** Client addresses (CIDR list, IPv4 and IPv6) answered 403. */
  readonly blockedIps: readonly string[];
  /**
   * Request header carrying the client's country (ISO 3166-1 alpha-2) as set by an edge proxy or CDN in
   * front of the mock — `CF-IPCountry` (Cloudflare) by default. The mock believes it as sent: only put the
   * mock where that proxy overwrites it.
   */
  readonly countryHeader: string;
  /** Countries answered 403 (e.g. `["KP"]`; Cloudflare also sends `XX` unknown and `T1` Tor). */
  readonly blockedCountries: readonly string[];
}

/**
 * The defaults give the conformance suite a blocked client it can present from loopback (seed §7 403 cause 2;
 * docs/profile.md "blocked"): a proxy on this machine is trusted, so `X-Forwarded-For: 192.0.2.10` sent from
 * loopback is a client in the blocked documentation range (RFC 5737 TEST-NET-1; RFC 3849 for IPv6), and
 * `CF-IPCountry: ZZ` (ISO 3166-1 user-assigned, never a real country) is a blocked country. Only a process on
 * this machine can claim an address; a configuration file replaces each list.
 */
export const DEFAULT_ACCESS: AccessSettings = {
  trustedProxies: ['127.0.0.1/32', '::1/128'],
  proxyHeader: 'x-forwarded-for',
  blockedIps: ['192.0.2.0/24', '2001:db8:b10c::/48'],
  countryHeader: 'CF-IPCountry',
  blockedCountries: ['ZZ'],
};

export function mergeAccess(base: AccessSettings, file: Partial<AccessSettings> | undefined): AccessSettings {
  return file === undefined ? base : { ...base, ...file };
}
