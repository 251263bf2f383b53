/**
 * Which of the target's rate-limit counters a request counts against, as the profile declares them
 * (`rateLimit.key`): one for the client address across all routes (`all`), one per path, or one per
 * identity — recognised from the credential the request carries, the way the target recognises it.
 * A request whose credential is no declared identity's counts against no declared counter (''), and so does
 * every request to another endpoint when the limit is one endpoint's (`rateLimit.appliesTo: endpoint`).
 */
import { apikeyAuthorization, apikeyForm } from '../profile/apikey-scheme.ts';
import type { Profile } from '../profile/types.ts';
import { mintedIdentity } from './minted-identity.ts';

export type Bucketer = (path: string, authorization: readonly string[]) => string;

/** `target`: the base URL, whose path prefixes every endpoint's path (a baseUrl of https://host/api keeps /api). */
export function bucketer(profile: Profile, target?: string): Bucketer {
  const declared = counters(profile);
  const rl = profile.rateLimit;
  // A limit of one endpoint (`appliesTo: endpoint`; the burst's endpoint, by default endpoints.protected)
  // counts nothing else.
  const endpoint = rl?.appliesTo === 'endpoint' ? (rl.endpoint ?? profile.endpoints.protected) : undefined;
  if (endpoint === undefined) return declared;
  const base = target === undefined ? '' : new URL(target).pathname.replace(/\/+$/, '');
  const only = `${base}${endpoint.path}`;
  return (path, authorization) => (pathOnly(path) === only ? declared(path, authorization) : '');
}

const pathOnly = (path: string): string => path.split('?')[0] ?? path;

function counters(profile: Profile): Bucketer {
  const key = profile.rateLimit === undefined ? undefined : (profile.rateLimit.key ?? 'identity');
  if (key === undefined) return () => '';
  if (key === 'address') return () => 'all';
  if (key === 'endpoint') return pathOnly;
  const who = identityRecogniser(profile);
  return (_path, authorization) => (authorization.length === 1 ? who(authorization[0] ?? '') : '');
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
