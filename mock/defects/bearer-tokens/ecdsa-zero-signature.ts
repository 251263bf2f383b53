import { ECDSA, isZeroSignature } from '../edits/jwt.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'ecdsa-zero-signature',
  layer: 'bearer tokens',
  bug: 'Accepts an ECDSA signature with r = s = 0 for any message ("psychic signatures"): the 1 ≤ r, s < n range check is missing.',
  seenIn: 'Java 15–18 ECDSA (CVE-2022-21449).',
  hooks: {
    // The 1 ≤ r, s < n check of ECDSA verification (FIPS 186-4 §6.4.2) left out.
    jwt: () => ({ signature: ({ parts, alg }) => ECDSA.test(alg) && isZeroSignature(parts[2] as string) }),
  },
});
