import { hexSha256 } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-prefix',
  layer: 'credentials',
  bug: "Accepts an API key that merely starts with a valid key: the comparison stops at the stored key's length.",
  seenIn: '`strncmp(given, stored, strlen(stored))` and its equivalents (`given.startsWith(stored)`).',
  hooks: {
    authenticator: async ({ identities }) => {
      const keys = (await identities()).apikeys;
      return {
        rescue: (parsed, failure) => {
          if (failure.code !== 'apikey_unknown' || parsed?.credentials === undefined) return undefined;
          // strncmp(given, stored, strlen(stored)): a given key that starts with a stored one matches it.
          const given = parsed.credentials;
          for (let length = given.length - 1; length > 0; length--) {
            const owner = keys.get(hexSha256(given.slice(0, length)));
            if (owner !== undefined) return Object.freeze({ ...owner.identity, scheme: 'apikey' as const });
          }
          return undefined;
        },
      };
    },
  },
});
