/**
 * How a worker describes each request to the run's scheduler (specs/run/scopes.ts): its path (the base URL's
 * path prefixes every endpoint's), the declared identity its credential verifies as — recognised the way the
 * target recognises it — a digest of that credential, and whether a declared limit counts the request at all
 * (`rateLimit.appliesTo: endpoint` counts only the requests to its endpoint). The scheduler decides from that
 * which counters the request falls in, under whichever keys it holds in force: the description does not
 * depend on the declared key, so the scheduler can learn another.
 */
import { createHash } from 'node:crypto';
import { apikeyAuthorization, apikeyForm } from '../profile/apikey-scheme.ts';
import type { Profile } from '../profile/types.ts';
import { mintedIdentity } from './minted-identity.ts';
import { encodeScope } from './scopes.ts';

/** The encoded scope (specs/run/scopes.ts) of a request to `path` carrying these Authorization lines. */
export type Bucketer = (path: string, authorization: readonly string[]) => string;

/** `target`: the base URL, whose path prefixes every endpoint's path (a baseUrl of https://host/api keeps /api). */
export function bucketer(profile: Profile, target?: string): Bucketer {
  const who = identityRecogniser(profile);
  const rl = profile.rateLimit;
  // A limit of one endpoint (`appliesTo: endpoint`; the burst's endpoint, by default endpoints.protected)
  // counts nothing else.
  const endpoint = rl?.appliesTo === 'endpoint' ? (rl.endpoint ?? profile.endpoints.protected) : undefined;
  const base = target === undefined ? '' : new URL(target).pathname.replace(/\/+$/, '');
  const only = endpoint === undefined ? undefined : `${base}${endpoint.path}`;
  return (path, authorization) => {
    const route = pathOnly(path);
    // Counted by no declared limit: under every key it falls in `other` (scopes.ts counterOf), whoever sent it,
    // so the credential is not looked at (the fuzz cases of an `appliesTo: endpoint` profile, per request).
    if (only !== undefined && route !== only)
      return encodeScope({ counted: false, route, identity: '', credential: '' });
    const credential = authorization.length === 1 ? (authorization[0] ?? '') : '';
    const identity = credential === '' ? '' : who(credential);
    return encodeScope({
      counted: true,
      route,
      identity,
      credential: identity === '' ? '' : digest(credential),
    });
  };
}

const pathOnly = (path: string): string => path.split('?')[0] ?? path;

/**
 * A short digest of the credential as the target reads it (the scheme's case and the spaces after it do not
 * matter: RFC 9110 §11.1): a counter per credential without the credential leaving the worker.
 */
function digest(credential: string): string {
  return createHash('sha256').update(normalised(credential)).digest('base64url').slice(0, 16);
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
