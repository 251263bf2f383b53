import { verifyPassword } from '../../auth/password-hash.ts';
import { basicCredentials } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-trims-user-pass',
  layer: 'credentials',
  bug: 'Trims whitespace off the decoded Basic user-id and password before checking them, so " alice" and "password " are accepted as alice and her password (RFC 7617 §2 keeps every octet).',
  seenIn: '`const [user, pass] = decoded.split(":").map((s) => s.trim())` in hand-written Basic middleware.',
  hooks: {
    authenticator: async ({ identities }) => {
      const users = (await identities()).passwords;
      return {
        rescue: async (parsed, failure) => {
          if (failure.code !== 'basic_unknown_user' && failure.code !== 'basic_wrong_password')
            return undefined;
          const credentials = basicCredentials(parsed);
          if (credentials === undefined) return undefined;
          const userId = credentials.userId.trim();
          const password = credentials.password.trim();
          if (userId === credentials.userId && password === credentials.password) return undefined;
          const user = users.get(userId.normalize('NFC'));
          if (user === undefined || !(await verifyPassword(password, user.hash))) return undefined;
          return Object.freeze({ ...user.identity, scheme: 'basic' as const });
        },
      };
    },
  },
});
