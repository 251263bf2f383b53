import { basicCredentials } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-any-password',
  layer: 'credentials',
  bug: 'Accepts any password for a known Basic user-id: the password is never compared.',
  seenIn:
    'Stub authenticators left in place ("TODO: check password"); password checks that compare the wrong field.',
  hooks: {
    authenticator: async ({ identities }) => {
      const users = (await identities()).passwords;
      return {
        rescue: (parsed, failure) => {
          if (failure.code !== 'basic_wrong_password') return undefined;
          const credentials = basicCredentials(parsed);
          const user = credentials && users.get(credentials.userId.normalize('NFC'));
          return user ? Object.freeze({ ...user.identity, scheme: 'basic' as const }) : undefined;
        },
      };
    },
  },
});
