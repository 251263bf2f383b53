/**
 * Which client is asking (RFC 6749 §2.3.1): HTTP Basic with the form-urlencoded client id and secret, or
 * `client_id` and `client_secret` in the body — never both ("The client MUST NOT use more than one
 * authentication method in each request").
 */

import type { IncomingMessage } from 'node:http';

export type ClientCredentials =
  | {
      readonly kind: 'found';
      readonly clientId: string;
      readonly secret: string;
      readonly via: 'basic' | 'body';
    }
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed'; readonly why: string };

export function clientCredentialsOf(
  req: IncomingMessage,
  params: ReadonlyMap<string, readonly string[]>,
): ClientCredentials {
  const header = req.headers.authorization;
  const bodyId = params.get('client_id')?.[0];
  const bodySecret = params.get('client_secret')?.[0];
  if (header !== undefined) {
    if (bodySecret !== undefined)
      return { kind: 'malformed', why: 'client authenticated twice (header and body)' };
    const match = /^basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
    if (match === null) return { kind: 'malformed', why: 'Authorization is not Basic client credentials' };
    const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { kind: 'malformed', why: 'Basic credentials without ":"' };
    // §2.3.1: id and secret are encoded with application/x-www-form-urlencoded before Basic.
    const formDecode = (s: string): string | undefined => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    const clientId = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    if (clientId === undefined || secret === undefined)
      return { kind: 'malformed', why: 'client id or secret is not form-urlencoded' };
    if (bodyId !== undefined && bodyId !== clientId)
      return { kind: 'malformed', why: 'client_id in the body differs from the authenticated client' };
    return { kind: 'found', clientId, secret, via: 'basic' };
  }
  if (bodyId !== undefined && bodySecret !== undefined)
    return { kind: 'found', clientId: bodyId, secret: bodySecret, via: 'body' };
  return { kind: 'none' };
}
