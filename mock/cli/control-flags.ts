/**
 * The CLI flags of the protections (rate limit, block lists, faults, control API, clock) and their banner
 * lines, kept apart from mock/cli.ts so the flag list and the config keys they set sit side by side. Each
 * flag sets the config key of the same meaning (docs/mock.md); flags win over the config file.
 */

import { resolveSwitch, type Switch } from '../access/exposure.ts';
import { redactUrl } from '../access/rate-limit-redis.ts';
import { KEY_WORDS } from '../access/rate-limit-settings.ts';
import type { MockConfigOverrides } from '../config.ts';
import type { RunningMock } from '../server.ts';

/** The header styles (mock/access/rate-limit-settings.ts RateLimitHeaderStyle). */
const HEADER_STYLES: readonly string[] = [
  'ietf',
  'legacy',
  'x-ratelimit',
  'draft-7',
  'draft-8',
  'none',
  'bare',
];

export const PROTECTION_OPTIONS = {
  'rate-limit': { type: 'string' },
  ban: { type: 'string' },
  'failed-attempt-limit': { type: 'string' },
  'rate-limit-headers': { type: 'string' },
  'rate-limit-key': { type: 'string' },
  burst: { type: 'string' },
  'redis-url': { type: 'string' },
  'redis-prefix': { type: 'string' },
  'redis-unavailable': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'proxy-header': { type: 'string' },
  'block-ip': { type: 'string' },
  'block-country': { type: 'string' },
  'fault-header': { type: 'string' },
  'fault-rate': { type: 'string' },
  'fault-seed': { type: 'string' },
  control: { type: 'string' },
  'control-token': { type: 'string' },
  'clock-offset': { type: 'string' },
} as const;

export type ProtectionFlags = Partial<Record<keyof typeof PROTECTION_OPTIONS, string>>;

export const PROTECTION_USAGE = `
Access control, faults and the control API (docs/mock.md):
      --rate-limit <n>/<s>       Limit per client key: n requests per s-second window (default 3000/10), or off
      --rate-limit-key <k>       identity (verified identity, else address; default), address (every request)
                                 or route (every request, per address and route)
      --burst <n>/<s>            Burst limit: at most n requests per s-second window (s divides the window)
      --failed-attempt-limit <n> Failed credential attempts per window per address (default 20000)
      --ban <n>/<s>              Ban for s seconds after n more requests while limited (default 200/30), or off
      --rate-limit-headers <h>   ietf (RateLimit-Policy + RateLimit, default), legacy (RateLimit-Limit/…),
                                 x-ratelimit, draft-7, draft-8, none (Retry-After only), bare (nothing)
      --redis-url <url>          Keep counts and bans in this Redis, shared by every instance (redis://host:port)
      --redis-prefix <p>         Namespace of this deployment's Redis keys (default gatecheck)
      --redis-unavailable <m>    Redis down or slow: insurance (count in memory, default) or refuse (503)
      --trust-proxy <cidrs>      Believe --proxy-header from these proxies (comma-separated CIDR ranges)
      --proxy-header <h>         The one header they write: x-forwarded-for (default) or forwarded (RFC 7239)
      --block-ip <cidrs>         Answer 403 to these client addresses (comma-separated, IPv4 and IPv6)
      --block-country <codes>    Answer 403 to these countries, read from CF-IPCountry (e.g. KP,XX)
      --fault-header <on|off>    Honour X-Gatecheck-Fault: 500 | drop | latency=<ms> (default: on for loopback)
      --fault-rate <p>           Answer 500 to a share p (0–1) of requests on every route
      --fault-seed <n>           Seed of the fault generator, so runs repeat (default 1)
      --control <on|off>         The control API under /__gatecheck/ (default: on for loopback)
      --control-token <token>    Its bearer token (default: generated at start and printed below)
      --clock-offset <seconds>   Start the mock's clock this far from now (negative: in the past)`;

/** Overrides for startMock, or one line saying which flag is wrong. */
export function protectionOverrides(flags: ProtectionFlags): MockConfigOverrides | string {
  const out: {
    -readonly [K in keyof MockConfigOverrides]: MockConfigOverrides[K];
  } = {};
  const rateLimit: Record<string, unknown> = {};
  const group: Record<string, number | string> = {};

  if (flags['rate-limit'] !== undefined) {
    if (flags['rate-limit'] === 'off') rateLimit.enabled = false;
    else {
      const pair = ratio(flags['rate-limit'], 1, 0.001);
      if (pair === undefined)
        return `--rate-limit: expected <requests>/<seconds> (e.g. 100/10) or off, got "${flags['rate-limit']}"`;
      rateLimit.enabled = true;
      [group.limit, group.windowSeconds] = pair;
    }
  }
  if (flags.ban !== undefined) {
    if (flags.ban === 'off') group.banSeconds = 0;
    else {
      const pair = ratio(flags.ban, 0, 0);
      if (pair === undefined)
        return `--ban: expected <requests>/<seconds> (e.g. 200/30) or off, got "${flags.ban}"`;
      [group.banAfter, group.banSeconds] = pair;
    }
  }
  if (flags.burst !== undefined) {
    const pair = ratio(flags.burst, 1, 0.001);
    if (pair === undefined)
      return `--burst: expected <requests>/<seconds> (e.g. 10/0.25), got "${flags.burst}"`;
    [group.burstLimit, group.burstWindowSeconds] = pair;
  }
  const key = flags['rate-limit-key'];
  if (key !== undefined) {
    if (key !== 'identity' && key !== 'address' && key !== 'route') {
      return `--rate-limit-key: expected identity, address or route, got "${key}"`;
    }
    group.key = key;
  }
  const failed = flags['failed-attempt-limit'];
  if (failed !== undefined) {
    if (!/^\d{1,9}$/.test(failed) || Number(failed) < 1) {
      return `--failed-attempt-limit: expected a whole number ≥ 1, got "${failed}"`;
    }
    group.failedAttemptLimit = Number(failed);
  }
  if (Object.keys(group).length > 0) rateLimit.groups = { default: group };
  const headers = flags['rate-limit-headers'];
  if (headers !== undefined) {
    if (!HEADER_STYLES.includes(headers)) {
      return `--rate-limit-headers: expected ${HEADER_STYLES.slice(0, -1).join(', ')} or ${HEADER_STYLES.at(-1)}, got "${headers}"`;
    }
    rateLimit.headers = headers;
  }
  if (Object.keys(rateLimit).length > 0) out.rateLimit = rateLimit;

  const store: Record<string, unknown> = {};
  if (flags['redis-url'] !== undefined) {
    if (!/^rediss?:\/\/\S+$/.test(flags['redis-url'])) {
      return '--redis-url: expected a redis:// or rediss:// URL';
    }
    store.redisUrl = flags['redis-url'];
  }
  if (flags['redis-prefix'] !== undefined) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(flags['redis-prefix'])) {
      return `--redis-prefix: expected 1 to 64 letters, digits, _ . or - (no colon), got "${flags['redis-prefix']}"`;
    }
    store.prefix = flags['redis-prefix'];
  }
  const unavailable = flags['redis-unavailable'];
  if (unavailable !== undefined) {
    if (unavailable !== 'insurance' && unavailable !== 'refuse') {
      return `--redis-unavailable: expected insurance or refuse, got "${unavailable}"`;
    }
    store.onUnavailable = unavailable;
  }
  if (Object.keys(store).length > 0) out.store = store;

  const access: Record<string, unknown> = {};
  if (flags['trust-proxy'] !== undefined) access.trustedProxies = list(flags['trust-proxy']);
  const proxyHeader = flags['proxy-header'];
  if (proxyHeader !== undefined) {
    // Exact, as the config file's enum: an operator's typo must not silently pick the other header.
    if (proxyHeader !== 'x-forwarded-for' && proxyHeader !== 'forwarded') {
      return `--proxy-header: expected x-forwarded-for or forwarded, got "${proxyHeader}"`;
    }
    access.proxyHeader = proxyHeader;
  }
  if (flags['block-ip'] !== undefined) access.blockedIps = list(flags['block-ip']);
  if (flags['block-country'] !== undefined) access.blockedCountries = list(flags['block-country']);
  if (Object.keys(access).length > 0) out.access = access;

  const faults: Record<string, unknown> = {};
  if (flags['fault-header'] !== undefined) {
    const value = onOff(flags['fault-header']);
    if (value === undefined)
      return `--fault-header: expected on, off or loopback, got "${flags['fault-header']}"`;
    faults.header = value;
  }
  if (flags['fault-rate'] !== undefined) {
    const p = Number(flags['fault-rate']);
    if (flags['fault-rate'].trim() === '' || !(p >= 0 && p <= 1)) {
      return `--fault-rate: expected a probability from 0 to 1, got "${flags['fault-rate']}"`;
    }
    faults.rules = [{ kind: 'error', probability: p }];
  }
  if (flags['fault-seed'] !== undefined) {
    if (!/^-?\d{1,10}$/.test(flags['fault-seed']))
      return `--fault-seed: expected an integer, got "${flags['fault-seed']}"`;
    faults.seed = Number(flags['fault-seed']);
  }
  if (Object.keys(faults).length > 0) out.faults = faults;

  const control: Record<string, unknown> = {};
  if (flags.control !== undefined) {
    const value = onOff(flags.control);
    if (value === undefined) return `--control: expected on, off or loopback, got "${flags.control}"`;
    control.enabled = value;
  }
  if (flags['control-token'] !== undefined) control.token = flags['control-token'];
  if (Object.keys(control).length > 0) out.control = control;

  if (flags['clock-offset'] !== undefined) {
    const offset = Number(flags['clock-offset']);
    if (flags['clock-offset'].trim() === '' || !Number.isFinite(offset)) {
      return `--clock-offset: expected a number of seconds, got "${flags['clock-offset']}"`;
    }
    out.clockOffsetSeconds = offset;
  }
  return out;
}

/** The banner's lines about the protections: what is on, and how to reach the control API. */
export function protectionBanner(mock: RunningMock): string[] {
  const { rateLimit, access, faults, store } = mock.config;
  const lines: string[] = [];
  const group = rateLimit.groups.default;
  if (!rateLimit.enabled) lines.push('  limits  off');
  else if (group !== undefined) {
    const ban = group.banSeconds > 0 ? `, then ${group.banAfter} more → banned ${group.banSeconds} s` : '';
    const others = Object.keys(rateLimit.groups).length - 1;
    const key = group.key ?? 'identity';
    const per = `${KEY_WORDS[key]}${key === 'identity' ? '' : ' (every request)'}`;
    const burst =
      group.burstLimit === undefined
        ? ''
        : `, burst ${group.burstLimit} per ${group.burstWindowSeconds ?? 1} s`;
    lines.push(
      `  limits  ${group.limit} requests per ${group.windowSeconds} s per ${per}${burst}${ban}` +
        `${others > 0 ? ` (+${others} route group${others > 1 ? 's' : ''})` : ''}; headers ${rateLimit.headers}`,
      `          ${group.failedAttemptLimit} failed credential attempts per ${group.windowSeconds} s per address`,
    );
  } else lines.push(`  limits  per route group: ${Object.keys(rateLimit.groups).join(', ')}`);
  if (store.type === 'redis' && store.redisUrl !== undefined) {
    lines.push(
      `  store   Redis ${redactUrl(store.redisUrl)}, keys ${store.prefix}:*; unreachable → ${store.onUnavailable}`,
    );
  }
  const blocked = [
    access.blockedIps.length > 0 ? `addresses ${access.blockedIps.join(' ')}` : '',
    access.blockedCountries.length > 0
      ? `countries ${access.blockedCountries.join(' ')} (${access.countryHeader})`
      : '',
  ].filter(Boolean);
  if (blocked.length > 0) lines.push(`  blocked ${blocked.join('; ')}`);
  if (access.trustedProxies.length > 0) {
    const header = access.proxyHeader === 'forwarded' ? 'Forwarded' : 'X-Forwarded-For';
    lines.push(`  proxies ${header} believed from ${access.trustedProxies.join(' ')}`);
  }
  const faultParts = [
    resolveSwitch(faults.header, new URL(mock.url).hostname)
      ? 'X-Gatecheck-Fault: 500 | drop | latency=<ms> honoured'
      : '',
    faults.rules.length > 0
      ? `${faults.rules.length} rule${faults.rules.length > 1 ? 's' : ''} (seed ${faults.seed})`
      : '',
  ].filter(Boolean);
  lines.push(`  faults  ${faultParts.length > 0 ? faultParts.join('; ') : 'none'}`);
  if (mock.control === undefined) lines.push('  control off (--control on to enable)');
  else {
    lines.push(
      `  control ${mock.control.url}/  token ${mock.control.token}`,
      `          journal: curl -H "Authorization: Bearer ${mock.control.token}" ${mock.control.url}/journal`,
    );
  }
  return lines;
}

/** `<a>/<b>`: a whole number at least `minA`, and seconds (up to 3 decimals: ms) at least `minB`. */
function ratio(text: string, minA: number, minB: number): [number, number] | undefined {
  const match = /^(\d{1,9})\/(\d{1,5}(?:\.\d{1,3})?)$/.exec(text.trim());
  if (match === null) return undefined;
  const a = Number(match[1]);
  const b = Number(match[2]);
  return a >= minA && b >= minB ? [a, b] : undefined;
}

function list(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function onOff(text: string): Switch | undefined {
  if (text === 'on' || text === 'true') return true;
  if (text === 'off' || text === 'false') return false;
  if (text === 'loopback') return 'loopback';
  return undefined;
}
