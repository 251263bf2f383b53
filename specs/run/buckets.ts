/**
 * How a worker describes each request to the run's scheduler (specs/run/scopes.ts): its path (the base URL's
 * path prefixes every endpoint's), the declared identity its credential verifies as — recognised the way the
 * target recognises it — a digest of the credential (any credential: under `credential` every value is a
 * counter of its own), its route template where the profile names one (`/users/{id}`), and which entries of
 * the declared limits count it (`appliesTo`, `routes`: specs/profile/rate-policy.ts), and whether it goes to a route
 * and method the profile declares (else many targets answer it before their limit). The scheduler decides from that
 * which counters the request falls in, under whichever keys it holds in force: the description does not
 * depend on the declared key, so the scheduler can learn another.
 */
import { createHash } from 'node:crypto';
import { fieldValue } from '../../shared/field-value.ts';
import { apikeyAuthorization, apikeyForm } from '../profile/apikey-scheme.ts';
import { pathOf, supportedMethods } from '../profile/methods.ts';
import {
  entryApplies,
  type RatePolicy,
  rateLimitList,
  ratePolicyOf,
  templateMatcher,
} from '../profile/rate-policy.ts';
import type { Endpoint, Profile } from '../profile/types.ts';
import { mintedIdentity } from './minted-identity.ts';
import { encodeScope } from './scopes.ts';

/**
 * The encoded scope (specs/run/scopes.ts) of a request to `path` carrying these Authorization lines, sent with
 * `method` (GET when not given).
 */
export type Bucketer = (path: string, authorization: readonly string[], method?: string) => string;

/**
 * `target`: the base URL, whose path prefixes every endpoint's path (a baseUrl of https://host/api keeps /api).
 * `policy`: the profile's resolved rate policy (ratePolicyOf), when the caller has it already.
 */
export function bucketer(
  profile: Profile,
  target?: string,
  policy: RatePolicy = ratePolicyOf(profile),
): Bucketer {
  const who = identityRecogniser(profile);
  const base = target === undefined ? '' : new URL(target).pathname.replace(/\/+$/, '');
  const entries = policy.entries;
  // A digest per credential only where some key in play may count per identity or credential (declared so,
  // or not declared: the scheduler starts per credential): elsewhere every request of a route shares one bucket.
  const perCredential = entries.some(
    (e) => e.key === undefined || e.key === 'identity' || e.key === 'credential',
  );
  // The spelling as sent only where a key in play counts per credential value (declared so, or not declared).
  const perSpelling = entries.some((e) => e.key === undefined || e.key === 'credential');
  const publicPath = profile.endpoints.public?.path;
  const templates = policy.templates.map((t) => ({ template: t, match: templateMatcher(t) }));
  const routeOf = (path: string): string => {
    for (const t of templates) if (t.match.test(path)) return t.template;
    return path;
  };
  const answersBeforeLimit = unroutedRecogniser(profile, templates);
  return (path, authorization, method = 'GET') => {
    const full = pathOnly(path);
    // A path outside the base URL's is no endpoint of the profile's: only limits of every path count it.
    const inBase = base === '' || full === base || full.startsWith(`${base}/`);
    const relative = inBase ? full.slice(base.length) || '/' : undefined;
    // Several Authorization lines (a malformed request, RFC 9110 §5.3): a credential all the same — the first,
    // which Node's parser keeps (it discards an `authorization` field's duplicates) and a limiter in front keys —
    // not one of the requests that carry none; verified as no identity, since a target refuses such a request.
    // RFC 9110 §5.5: a field value has no leading or trailing whitespace — a parser strips it, so a field of
    // spaces and tabs only is an empty value, which a target counts with the requests that carry none.
    const credential = fieldValue(authorization[0] ?? '');
    const applying = entries.filter((e) => entryApplies(e, relative, credential !== ''));
    if (applying.length === 0 && entries.length > 0)
      return encodeScope({ counted: false, route: full, identity: '', credential: '' });
    const identity = credential === '' || authorization.length > 1 ? '' : who(credential);
    const unrouted = answersBeforeLimit(relative, method);
    // No credential, to a declared route that needs one (not the public route's read), under a limit per identity.
    const unidentified =
      credential === '' &&
      !unrouted &&
      relative !== undefined &&
      !(relative === publicPath && READS.has(method.toUpperCase())) &&
      applying.some((e) => e.key === 'identity');
    return encodeScope({
      counted: true,
      ...(applying.length === entries.length ? {} : { entries: applying.map((e) => e.index) }),
      route: relative === undefined ? full : `${base}${routeOf(relative)}`,
      identity,
      credential: credential === '' || !perCredential ? '' : digest(normalised(credential)),
      ...(credential === '' || !perSpelling ? {} : { spelling: digest(credential) }),
      ...(relative !== undefined && relative === publicPath ? { publicRoute: true } : {}),
      ...(unrouted ? { unrouted: true } : {}),
      ...(unidentified ? { unidentified: true } : {}),
    });
  };
}

/**
 * Whether a request goes to no route the profile declares (a path none of its endpoints, `methods`, limits'
 * routes or templates names — `endpoints.missing` included, and any path outside the base URL's), with a method
 * its path does not take (RFC 9110 §15.5.6: a 405; HEAD goes with GET, §9.3.2), or is an `OPTIONS` (§9.3.7) its
 * path's `methods` do not list: what many targets answer before their limiter (RequestScope.unrouted). A guess
 * either way costs little: a target that counts them says so with one limited answer (specs/run/coordinator.ts).
 */
function unroutedRecogniser(
  profile: Profile,
  templates: readonly { readonly match: RegExp }[],
): (relative: string | undefined, method: string) => boolean {
  const methods = supportedMethods(profile);
  const { missing: _, ...declared } = profile.endpoints;
  const known = new Set<string>([
    ...methods.keys(),
    ...Object.values(declared).map((e) => pathOf((e as Endpoint | undefined)?.path ?? '')),
    ...rateLimitList(profile).flatMap((e) => e.routes ?? []),
  ]);
  known.delete('');
  const refused = profile.endpoints.methodNotAllowed;
  return (relative, method) => {
    const m = method.toUpperCase();
    if (relative === undefined) return true;
    if (!known.has(relative) && !templates.some((t) => t.match.test(relative))) return true;
    if (
      refused !== undefined &&
      pathOf(refused.path) === relative &&
      (refused.method ?? 'GET').toUpperCase() === m
    )
      return true;
    const taken = methods.get(relative)?.methods;
    // OPTIONS is a route of its own only where the profile's `methods` lists it.
    if (m === 'OPTIONS') return taken?.has(m) !== true;
    return taken !== undefined && !taken.has(m) && !(m === 'HEAD' && taken.has('GET'));
  };
}

const pathOnly = (path: string): string => path.split('?')[0] ?? path;

/** The methods the public route serves without a credential (RFC 9110 §9.3.2: HEAD goes with GET). */
const READS = new Set(['GET', 'HEAD']);

/**
 * A short digest of a credential — as a parser reads it (normalised: the scheme's case and the spaces after it
 * do not matter, RFC 9110 §11.1), or as sent: a counter per credential without the credential leaving the worker.
 */
function digest(credential: string): string {
  return createHash('sha256').update(credential).digest('base64url').slice(0, 16);
}

/**
 * The declared identity whose credential `value` (an Authorization field value) is, or ''. Only a credential
 * the target will verify counts: a target keys an identity's counter by the *verified* identity, so a forged
 * or wrong credential counts wherever the target puts unverified clients (usually the address), which no
 * declared counter here models. A Bearer token the suite minted counts as the identity it was minted for when
 * the target would verify it (specs/run/minted-identity.ts).
 */
function identityRecogniser(profile: Profile): (value: string) => string {
  const known = new Map<string, string>();
  const form = apikeyForm(profile);
  for (const [name, creds] of Object.entries(profile.identities)) {
    if (creds === undefined) continue;
    if (typeof creds.bearer === 'string') known.set(`bearer ${creds.bearer}`, name);
    // A key in the target's own form (profile apikeyScheme): its word, a parameter, or the key alone.
    if (typeof creds.apikey === 'string')
      known.set(normalised(apikeyAuthorization(form, creds.apikey)), name);
    const { username, password } = creds.basic ?? {};
    if (typeof username === 'string' && typeof password === 'string') {
      known.set(`basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`, name);
    }
  }
  const minted = mintedIdentity(profile);
  return (value) => {
    const name = known.get(normalised(value));
    if (name !== undefined) return name;
    const m = /^\s*bearer +(\S+)\s*$/i.exec(value);
    return m !== null && minted !== undefined ? minted(m[1] ?? '') : '';
  };
}

/**
 * RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]; the scheme is case-insensitive,
 * the rest is not. A value without a space (a key sent alone) is kept as it is.
 */
function normalised(value: string): string {
  const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(.*?)\s*$/.exec(value);
  return m === null ? value.trim() : `${(m[1] ?? '').toLowerCase()} ${m[2] ?? ''}`;
}
