import { basicCredentials } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-empty-password',
  layer: 'credentials',
  bug: 'Accepts a known Basic user-id with an empty password.',
  seenIn:
    'Basic auth checked by an LDAP simple bind: a bind with an empty password is an unauthenticated bind and succeeds (RFC 4513 §5.1.2).',
  hooks: {
    authenticator: async ({ identities }) => {
      const users = (await identities()).passwords;
      return {
        rescue: (parsed, failure) => {
          if (failure.code !== 'basic_wrong_password') return undefined;
          const credentials = basicCredentials(parsed);
          // An empty password binds anonymously, and the anonymous bind "succeeds".
          if (credentials?.password !== '') return undefined;
          const user = users.get(credentials.userId.normalize('NFC'));
          return user ? Object.freeze({ ...user.identity, scheme: 'basic' as const }) : undefined;
        },
      };
    },
  },
});
