import { apikeyIdentity, plainApikeys } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-off-by-one',
  layer: 'credentials',
  bug: 'Compares API keys of equal length over all but their last character, so a valid key with its last character changed is accepted.',
  seenIn: 'Hand-written constant-time comparisons looping `for (i = 0; i < len - 1; i++)`.',
  hooks: {
    authenticator: async ({ identities }) => {
      const keys = plainApikeys(await identities());
      return {
        rescue: (parsed, failure) => {
          const given = parsed?.credentials;
          if (failure.code !== 'apikey_unknown' || !given) return undefined;
          const match = keys.find(
            ({ key }) => key.length === given.length && key.slice(0, -1) === given.slice(0, -1),
          );
          return match && apikeyIdentity(match.owner);
        },
      };
    },
  },
});
