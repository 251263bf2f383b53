import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-ignore-aud',
  layer: 'bearer tokens',
  bug: 'Ignores the audience: a token issued for another service is accepted (RFC 8725 §3.9).',
  seenIn: 'node-jsonwebtoken / jose `verify` called without the `audience` option.',
  hooks: {
    // RFC 7519 §4.1.3 not applied.
    jwt: () => ({ claims: { aud: () => true } }),
  },
});
