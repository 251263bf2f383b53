import { verifyPassword } from '../../auth/password-hash.ts';
import { basicCredentials, basicIdentity } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

/** `WHERE user_id LIKE ?` with the user-id unescaped: "%" stands for any run of characters, "_" for one. */
function likePattern(userId: string): RegExp {
  const body = [...userId]
    .map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

export default defineDefect({
  name: 'basic-user-id-like-wildcard',
  layer: 'credentials',
  bug: 'Looks the Basic user-id up with SQL `LIKE` and does not escape it, so "%" and "_" in a user-id are wildcards: "%alice" or "al_ce" with alice\'s password is let in as alice (RFC 7617 §2: the user-id is compared whole).',
  seenIn:
    "`SELECT * FROM users WHERE username LIKE ?` (a search query reused for login), ORMs' `iLike`/`contains` filters used for the login lookup.",
  hooks: {
    authenticator: async ({ identities }) => {
      const users = (await identities()).passwords;
      return {
        rescue: async (parsed, failure) => {
          if (failure.code !== 'basic_unknown_user') return undefined;
          const credentials = basicCredentials(parsed);
          if (credentials === undefined || !/[%_]/.test(credentials.userId)) return undefined;
          const pattern = likePattern(credentials.userId);
          for (const [name, user] of users)
            if (pattern.test(name) && (await verifyPassword(credentials.password, user.hash)))
              return basicIdentity(user.identity);
          return undefined;
        },
      };
    },
  },
});
