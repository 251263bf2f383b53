import { compactVerify, createLocalJWKSet } from 'jose';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-ignore-crit',
  layer: 'bearer tokens',
  bug: 'Ignores the `crit` header: a token that requires an extension the mock does not understand is accepted (RFC 7515 §4.1.11 says MUST reject).',
  seenIn: 'Libraries without `crit` support, which silently ignore the parameter.',
  hooks: {
    jwt: ({ jwks, settings }) => {
      const keys = createLocalJWKSet(jwks);
      const algorithms = [...settings.algorithms];
      return {
        signature: async ({ token, header }) => {
          if (!Array.isArray(header.crit)) return false;
          // RFC 7515 §4.1.11: `crit` names the extensions the recipient must understand; this verifier pretends to
          // understand every one of them.
          const crit = Object.fromEntries(header.crit.map((name) => [String(name), true]));
          try {
            await compactVerify(token, keys, { algorithms, crit });
            return true;
          } catch {
            return false;
          }
        },
      };
    },
  },
});
