import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'alg-none',
  layer: 'bearer tokens',
  bug: 'Accepts unsecured JWTs: a token whose header says `"alg": "none"` (any letter case) is taken without checking its signature.',
  seenIn: 'node-jsonwebtoken < 4.2.2 (CVE-2015-9235) and several other JWT libraries in the 2015 disclosure.',
  hooks: {
    // RFC 7518 §3.6: "none" is an unsecured JWS; this verifier takes it in any letter case, unsigned.
    jwt: () => ({ signature: ({ alg }) => alg.toLowerCase() === 'none' }),
  },
});
