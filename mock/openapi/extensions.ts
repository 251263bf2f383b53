/**
 * What the mock states about itself beyond OpenAPI's own fields, as the `x-gatecheck-*` extensions of
 * shared/openapi-extensions.ts (docs/mock.md "The mock describes itself"): how it verifies JWTs, its rate
 * limit, its fault header, the clients it blocks and the request it closes, and its largest write body —
 * all from its configuration, none of it secret.
 */
import { readFile } from 'node:fs/promises';
import ipaddr from 'ipaddr.js';
import type {
  BlockedClientExtension,
  BlockedExtension,
  FaultExtension,
  JwtExtension,
  RateLimitExtension,
} from '../../shared/openapi-extensions.ts';
import { type Address, compileCidrList, formatAddress, parseAddress } from '../access/cidr.ts';
import { type RateLimitGroup, splitRouteKey } from '../access/rate-limit-settings.ts';
import type { AccessSettings } from '../access/settings.ts';
import type { AuthSettings } from '../auth/types.ts';
import type { MockConfig } from '../config.ts';
import { FAULT_HEADER } from '../faults/settings.ts';
import type { Policy } from '../routing/policy.ts';

export interface MockExtensions {
  readonly jwt: JwtExtension;
  readonly rateLimit: RateLimitExtension | undefined;
  readonly fault: FaultExtension | undefined;
  readonly blocked: BlockedExtension | undefined;
  readonly maxBodyBytes: number;
}

/**
 * The verifier's settings; the public key of its allow-list's first algorithm, from the trusted JWKS (the
 * stand-in states the same on each scheme whose tokens it verifies, mock/standin/document.ts).
 */
export async function jwtOf(auth: AuthSettings, jwksUri: string): Promise<JwtExtension> {
  const jwks = JSON.parse(await readFile(auth.jwksPath, 'utf8')) as { keys?: Record<string, unknown>[] };
  const first = auth.algorithms[0];
  const key = (jwks.keys ?? []).find((k) => k.alg === first);
  return {
    issuer: auth.issuer,
    audience: auth.audience,
    algorithms: [...auth.algorithms],
    leewaySeconds: auth.clockToleranceSeconds,
    ...(key === undefined ? {} : { publicJwk: key }),
    jwksUri,
  };
}

/**
 * The limit a client can provoke: a route's quota of its own when the policy has one (the default
 * `GET /limited`, docs/mock.md "Rate limits"), with that route; else the default group on every route.
 */
function rateLimitOf(config: MockConfig, policy: Policy): RateLimitExtension | undefined {
  if (!config.rateLimit.enabled) return undefined;
  for (const [routeKey, name] of Object.entries(config.rateLimit.routes)) {
    // A key without a method names the route's every method; its GET is what a client probes.
    const { method = 'GET', pattern } = splitRouteKey(routeKey);
    const group = config.rateLimit.groups[name];
    const route = policy.routes.find((r) => r.path === pattern);
    if (group === undefined || route === undefined) continue;
    if (typeof route.methods[method as keyof typeof route.methods] !== 'object') continue;
    return { ...extensionOf(group), path: pattern, method };
  }
  const group = config.rateLimit.groups.default;
  return group === undefined ? undefined : extensionOf(group);
}

function extensionOf(group: RateLimitGroup): RateLimitExtension {
  return {
    limit: group.limit,
    windowSeconds: group.windowSeconds,
    // A count per address and route is, to the one client the suite is, a count per route.
    key: group.key === 'route' ? 'endpoint' : (group.key ?? 'identity'),
    ...(group.burstLimit === undefined ? {} : { burst: group.burstLimit }),
    ...(group.banSeconds > 0 ? { banAfter: group.banAfter, banSeconds: group.banSeconds } : {}),
  };
}

/** Documentation ranges (RFC 5737, RFC 3849): strings in a header, never an address anyone connects to. */
const UNBLOCKED_CANDIDATES = ['198.51.100.10', '203.0.113.10', '192.0.2.10', '2001:db8::10'];

/** An address inside a blocked range: its tenth where the range holds sixteen or more, else its first. */
function sampleIn(range: string): Address | undefined {
  try {
    const [base, prefix] = range.includes('/') ? ipaddr.parseCIDR(range) : [ipaddr.parse(range), 128];
    const bytes = base.toByteArray();
    if (bytes.length * 8 - prefix >= 4) bytes[bytes.length - 1] = ((bytes.at(-1) ?? 0) & 0xf0) | 10;
    return parseAddress(formatAddress(ipaddr.fromByteArray(bytes)));
  } catch {
    return undefined;
  }
}

/** The proxy header's form of one client address: X-Forwarded-For, or RFC 7239 Forwarded. */
function forwardedFor(access: AccessSettings, address: string): Record<string, string> {
  if (access.proxyHeader === 'x-forwarded-for') return { 'X-Forwarded-For': address };
  return { Forwarded: `for=${address.includes(':') ? `"[${address}]"` : address}` };
}

/**
 * Seed §7's blocked client: an address a trusted proxy reports (only believed from such a proxy — loopback by
 * default), and a country in the country header; the closed request: the policy's first closed route.
 */
export function blockedOf(
  access: AccessSettings,
  policy: Pick<Policy, 'routes'>,
): BlockedExtension | undefined {
  const clients: BlockedClientExtension[] = [];
  const blocked = compileCidrList(access.blockedIps, 'access.blockedIps');
  const sample = access.blockedIps.map(sampleIn).find((a) => a !== undefined && blocked.has(a));
  const served = UNBLOCKED_CANDIDATES.map(parseAddress).find(
    (a) => a !== undefined && a.kind() === sample?.kind() && !blocked.has(a),
  );
  if (access.trustedProxies.length > 0 && sample !== undefined) {
    const address = formatAddress(sample);
    clients.push({
      label: `address ${address} (${access.proxyHeader === 'x-forwarded-for' ? 'X-Forwarded-For' : 'Forwarded'} from a trusted proxy: ${access.trustedProxies.join(' ')})`,
      headers: forwardedFor(access, address),
      ...(served === undefined ? {} : { unblockedHeaders: forwardedFor(access, formatAddress(served)) }),
    });
  }
  const country = access.blockedCountries[0];
  if (country !== undefined) {
    const other = ['NL', 'DE', 'US'].find((c) => !access.blockedCountries.includes(c));
    clients.push({
      label: `country ${country} (${access.countryHeader})`,
      headers: { [access.countryHeader]: country },
      ...(other === undefined ? {} : { unblockedHeaders: { [access.countryHeader]: other } }),
    });
  }
  let closed: BlockedExtension['closed'];
  for (const route of policy.routes) {
    const method = Object.entries(route.methods).find(([, access]) => access === 'closed')?.[0];
    if (method !== undefined && closed === undefined) closed = { path: route.path, method };
  }
  if (clients.length === 0 && closed === undefined) return undefined;
  return { ...(clients.length > 0 ? { clients } : {}), ...(closed === undefined ? {} : { closed }) };
}

/** `faultHeader`: whether this listener honours the fault header (it is off on a non-loopback listener by default). */
export async function describeExtensions(
  config: MockConfig,
  policy: Policy,
  jwksPath: string,
  faultHeader: boolean,
): Promise<MockExtensions> {
  return {
    jwt: await jwtOf(config.auth, jwksPath),
    rateLimit: rateLimitOf(config, policy),
    fault: faultHeader ? { headers: { [headerName(FAULT_HEADER)]: '500' } } : undefined,
    blocked: blockedOf(config.access, policy),
    maxBodyBytes: config.maxBodyBytes,
  };
}

/** `x-gatecheck-fault` → `X-Gatecheck-Fault`: field names are case-insensitive (RFC 9110 §5.1). */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash}${c.toUpperCase()}`);
}
