import { sha256 } from '../../auth/digest.ts';
import { accepted, elevated } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-cache-skips-authorization',
  layer: 'authorization',
  bug: 'Keeps verified Bearer tokens in a cache whose hit path forgets the role check: the second request with the same token is let through where the first got 403.',
  seenIn: 'Fast paths that diverge from the slow path (verification caches, session caches).',
  hooks: {
    authenticator: ({ grants }) => {
      const seen = new Set<string>();
      return {
        after: (parsed, identity) => {
          if (identity.scheme !== 'bearer' || parsed?.credentials === undefined) return accepted(identity);
          const key = sha256(parsed.credentials);
          // The first sight takes the slow path (role check included); a repeat takes the cache's fast path.
          if (seen.has(key)) return accepted(elevated(identity, grants));
          seen.add(key);
          return accepted(identity);
        },
      };
    },
  },
});
