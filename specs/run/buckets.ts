/**
 * Which of the target's rate-limit counters a request counts against, as the profile declares them
 * (`rateLimit.key`): one for the client address across all routes (`all`), one per path, or one per
 * identity — recognised from the credential the request carries, the way the target recognises it.
 * A request whose credential is no declared identity's, or (`rateLimit.appliesTo: "endpoint"`) to a route
 * without the limit, counts against no declared counter ('').
 */
import type { Profile } from '../profile/types.ts';

export type Bucketer = (path: string, authorization: readonly string[]) => string;

export function bucketer(profile: Profile, target: string): Bucketer {
  const key = profile.rateLimit === undefined ? undefined : (profile.rateLimit.key ?? 'identity');
  if (key === undefined) return () => '';
  const counted = countedOn(profile, target);
  if (key === 'address') return (path) => (counted(path) ? 'all' : '');
  if (key === 'endpoint') return (path) => (counted(path) ? (path.split('?')[0] ?? path) : '');
  const who = identityRecogniser(profile);
  return (path, authorization) =>
    authorization.length === 1 && counted(path) ? who(authorization[0] ?? '') : '';
}

/**
 * Whether a request to `path` (a URL's pathname) counts against the declared limit: on every route, or — with
 * `appliesTo: "endpoint"` — only on the rate-limit endpoint's path under the target's base path.
 */
function countedOn(profile: Profile, target: string): (path: string) => boolean {
  const rl = profile.rateLimit;
  if (rl?.appliesTo !== 'endpoint') return () => true;
  const endpoint = rl.endpoint ?? profile.endpoints.protected;
  if (endpoint === undefined) return () => true;
  const only = `${new URL(target).pathname.replace(/\/+$/, '')}${endpoint.path}`;
  return (path) => (path.split('?')[0] ?? path) === only;
}

/**
 * The declared identity whose credential `value` (an Authorization field value) is, or ''. Only a credential
 * the target will verify counts: a target keys an identity's counter by the *verified* identity, so a forged
 * or wrong credential counts wherever the target puts unverified clients (usually the address), which no
 * declared counter here models. Tokens the suite mints are not recognised either; should their identity's
 * counter run out, the scheduler's waiting and learned pace take over.
 */
function identityRecogniser(profile: Profile): (value: string) => string {
  const known = new Map<string, string>();
  for (const [name, creds] of Object.entries(profile.identities)) {
    if (creds === undefined) continue;
    if (typeof creds.bearer === 'string') known.set(`bearer ${creds.bearer}`, name);
    if (typeof creds.apikey === 'string') known.set(`apikey ${creds.apikey}`, name);
    const { username, password } = creds.basic ?? {};
    if (typeof username === 'string' && typeof password === 'string') {
      known.set(`basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`, name);
    }
  }
  return (value) => {
    // RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]; the scheme is case-insensitive.
    const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S+)\s*$/.exec(value);
    return m ? (known.get(`${(m[1] ?? '').toLowerCase()} ${m[2] ?? ''}`) ?? '') : '';
  };
}
