/**
 * The Authorization field an identity of a profile sends with a scheme, from the environment variables the
 * profile names (`{ "env": "GATECHECK_USER_BEARER" }`, credentials.ts) — for `--probe`'s requests with
 * credentials. Bearer (RFC 6750 §2.1), Basic (RFC 7617 §2: user-id ":" password, base64) and a key in the
 * profile's own form (`apikeyScheme`, specs/profile/apikey-scheme.ts). A token the suite would fetch from an
 * OAuth token endpoint is not fetched: that is a POST, outside the base URL.
 */
import { apikeyAuthorization, apikeyForm } from '../../specs/profile/apikey-scheme.ts';
import { isObject } from './document-extensions.ts';

type Json = Record<string, unknown>;

export type Credential =
  | { readonly header: string; readonly from: string }
  | { readonly missing: string }
  | { readonly unsupported: string };

/** A value the profile gives as `{ env }` (or a literal string), read from `env`. */
function read(value: unknown, env: NodeJS.ProcessEnv): { value?: string; name: string } {
  if (typeof value === 'string') return { value, name: 'the profile' };
  const name = isObject(value) && typeof value.env === 'string' ? value.env : '?';
  const set = env[name];
  return set === undefined || set === '' ? { name } : { value: set, name };
}

export function credentialFor(
  profile: Json,
  identity: string,
  scheme: string,
  env: NodeJS.ProcessEnv,
): Credential {
  const identities = isObject(profile.identities) ? profile.identities : {};
  const id = isObject(identities[identity]) ? (identities[identity] as Json) : {};
  if (scheme === 'bearer') {
    if (id.bearer === undefined)
      return {
        unsupported: isObject(id.token)
          ? 'its token is fetched with a POST to the token endpoint'
          : 'no bearer credential',
      };
    const token = read(id.bearer, env);
    return token.value === undefined
      ? { missing: token.name }
      : { header: `Bearer ${token.value}`, from: token.name };
  }
  if (scheme === 'basic') {
    const basic = isObject(id.basic) ? id.basic : undefined;
    if (basic === undefined) return { unsupported: 'no basic credential' };
    const user = read(basic.username, env);
    const password = read(basic.password, env);
    if (user.value === undefined) return { missing: user.name };
    if (password.value === undefined) return { missing: password.name };
    const pair = Buffer.from(`${user.value}:${password.value}`).toString('base64');
    return { header: `Basic ${pair}`, from: `${user.name}, ${password.name}` };
  }
  if (scheme === 'apikey') {
    if (id.apikey === undefined) return { unsupported: 'no apikey credential' };
    const key = read(id.apikey, env);
    if (key.value === undefined) return { missing: key.name };
    const form = apikeyForm({
      apikeyScheme: typeof profile.apikeyScheme === 'string' ? profile.apikeyScheme : undefined,
    });
    return { header: apikeyAuthorization(form, key.value), from: key.name };
  }
  return { unsupported: `scheme ${scheme}` };
}
