import { HMAC, macMatches } from '../edits/jwt.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-kid-empty-secret',
  layer: 'bearer tokens',
  bug: 'Looks the HMAC secret up by the token\'s `kid` and falls back to an empty secret when the lookup finds nothing (a path to /dev/null, an injected SQL fragment, an empty kid), so HS256 tokens MAC\'d with "" are accepted.',
  seenIn:
    '`keys[kid] ?? ""` and key files read by `kid` (path traversal to /dev/null), as in the kid-injection write-ups behind RFC 8725 §3.10.',
  hooks: {
    jwt: ({ jwks }) => {
      const knownKids = new Set(jwks.keys.map((k) => k.kid).filter((kid) => kid !== undefined));
      return {
        signature: ({ parts, header, alg }) =>
          HMAC.test(alg) &&
          'kid' in header &&
          !knownKids.has(header.kid as string) &&
          macMatches(parts, alg, ['']),
      };
    },
  },
});
