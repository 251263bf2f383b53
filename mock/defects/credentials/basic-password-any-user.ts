import { verifyPassword } from '../../auth/password-hash.ts';
import { basicCredentials } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-password-any-user',
  layer: 'credentials',
  bug: "Accepts a known Basic user-id with any identity's password: the password is looked up among all users, not checked against the named one.",
  seenIn:
    '`SELECT 1 FROM users WHERE password_hash = ?` without the user-id; "does this password exist" checks written as login checks.',
  hooks: {
    authenticator: async ({ identities }) => {
      const users = (await identities()).passwords;
      return {
        rescue: async (parsed, failure) => {
          if (failure.code !== 'basic_wrong_password') return undefined;
          const credentials = basicCredentials(parsed);
          const named = credentials && users.get(credentials.userId.normalize('NFC'));
          if (credentials === undefined || named === undefined) return undefined;
          for (const user of users.values()) {
            if (await verifyPassword(credentials.password, user.hash))
              return Object.freeze({ ...named.identity, scheme: 'basic' as const });
          }
          return undefined;
        },
      };
    },
  },
});
