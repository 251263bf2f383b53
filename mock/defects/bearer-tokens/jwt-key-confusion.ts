import { createPublicKey } from 'node:crypto';
import { type CryptoKey, exportSPKI, importJWK, type JWK } from 'jose';
import { HMAC, macMatches } from '../edits/jwt.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-key-confusion',
  layer: 'bearer tokens',
  bug: "Lets the token choose HS256/384/512 and uses the RSA/EC public key's PEM text as the HMAC secret (RFC 8725 §2.1 key confusion).",
  seenIn:
    'The RS256→HS256 confusion of the 2015 disclosure; jwt-simple (CVE-2016-10555); PyJWT < 2.4.0 (CVE-2022-29217).',
  hooks: {
    jwt: async ({ jwks }) => {
      // The "secret" a confused verifier uses: the public key file's text, with and without its final newline.
      const pemSecrets: string[] = [];
      for (const jwk of jwks.keys) {
        const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : 'RS256');
        const spki = await exportSPKI((await importJWK(jwk, alg, { extractable: true })) as CryptoKey);
        const file = createPublicKey({ key: jwk as JWK & { kty: string }, format: 'jwk' })
          .export({ type: 'spki', format: 'pem' })
          .toString();
        pemSecrets.push(spki, file);
      }
      return { signature: ({ parts, alg }) => HMAC.test(alg) && macMatches(parts, alg, pemSecrets) };
    },
  },
});
