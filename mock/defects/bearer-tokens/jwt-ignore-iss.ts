import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-ignore-iss',
  layer: 'bearer tokens',
  bug: 'Ignores the issuer: a token from another issuer is accepted as long as the signature verifies (RFC 8725 §3.8).',
  seenIn:
    'Verifiers configured with a JWKS but no `issuer` option (multi-tenant identity providers share keys).',
  hooks: {
    // RFC 7519 §4.1.1 not applied.
    jwt: () => ({ claims: { iss: () => true } }),
  },
});
