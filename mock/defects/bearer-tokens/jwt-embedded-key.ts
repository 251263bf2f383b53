import { compactVerify, importJWK, type JWK } from 'jose';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-embedded-key',
  layer: 'bearer tokens',
  bug: 'Verifies a token with the key its own header offers (`jwk`, or the key at `jku` / `x5u`), so an attacker signs with their own key.',
  seenIn:
    'Cisco node-jose < 0.11.0 (CVE-2018-0114, embedded jwk); libraries that follow `jku` without an allow-list.',
  hooks: {
    // RFC 8725 §3.10 warns about header parameters that name or carry the key; this verifier trusts them.
    jwt: () => ({
      signature: async ({ token, header, alg }) => {
        if (header.jwk !== undefined) {
          try {
            await compactVerify(token, await importJWK(header.jwk as JWK, alg));
            return true;
          } catch {
            return false;
          }
        }
        // The mock is offline: following jku / x5u is emulated as fetching the attacker's key, which verifies.
        return header.jku !== undefined || header.x5u !== undefined;
      },
    }),
  },
});
