import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-accept-expired',
  layer: 'bearer tokens',
  bug: 'Accepts expired tokens: `exp` is never compared with the clock.',
  seenIn: 'node-jsonwebtoken `ignoreExpiration: true` left on; verifiers that only check the signature.',
  hooks: {
    // RFC 7519 §4.1.4 not applied: exp must still be there (a number), but is never compared with the clock.
    jwt: () => ({ claims: { exp: () => true } }),
  },
});
