/**
 * Block-list settings (config file `access`, CLI `--trust-proxy`, `--block-ip`, `--block-country`). Compiled
 * once at start-up (CIDR matchers), so a request pays for what is configured and nothing else.
 */

export interface AccessSettings {
  /**
   * Proxies (CIDR list) whose `X-Forwarded-For` is believed: the client is then the first untrusted hop
   * from the right. Empty (default): the socket's peer is the client and the header is ignored.
   */
  readonly trustedProxies: readonly string[];
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

export const DEFAULT_ACCESS: AccessSettings = {
  trustedProxies: [],
  blockedIps: [],
  countryHeader: 'CF-IPCountry',
  blockedCountries: [],
};

export function mergeAccess(base: AccessSettings, file: Partial<AccessSettings> | undefined): AccessSettings {
  return file === undefined ? base : { ...base, ...file };
}
