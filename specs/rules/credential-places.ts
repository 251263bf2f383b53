/**
 * Credentials in other places than the Authorization field (issue #68): RFC 6750 §2.2 (the form-encoded body
 * parameter `access_token`) and §2.3 (the URI query parameter `access_token`) are ways a Bearer token may be
 * sent, and API-key deployments read `api_key`, `apikey`, `key` or `token` from the query. A target that reads
 * a credential there must verify it as it verifies the header's: a token that the header would be refused for
 * is refused wherever it is sent (seed §5 rule 1: the server verifies the client's identity "from these
 * credentials before it processes the request"; rule 2: without valid credentials, 401).
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * MUST: seed §5 rules 1–2 and RFC 6750 §3.1 (`invalid_token`: expired, revoked, malformed or invalid for
 * other reasons) — a target is free not to read these places at all (then the request simply has no
 * credential), never to read them and skip verification.
 */
export const credentialOtherPlaces: Rule = {
  id: 'auth.credential.other-places',
  level: 'MUST',
  requirement:
    "A request whose only credential is one the target must refuse — a forged or expired token, a wrong API key, or on the admin path the user's — sent in the query (access_token, token, api_key, apikey, key) or as a form body access_token, is never answered with 2xx.",
  refs: [seed('5', 'rule 1'), seed('5', 'rule 2'), rfc(6750, '2.2'), rfc(6750, '2.3'), rfc(6750, '3.1')],
  statuses: [400, 401, 403, 405],
  needs: ['identities.admin (bearer or apikey)'],
  impact: 'access',
  remedy:
    'Read credentials from the Authorization field only, or verify a token or key found in the query or the body exactly as one in the header (signature, expiry, identity and role) before serving the request.',
};

export const credentialPlaceRules: readonly Rule[] = [credentialOtherPlaces];
