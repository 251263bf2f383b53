import { hexSha256 } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-as-bearer',
  layer: 'credentials',
  bug: 'Looks a Bearer token it cannot verify up in the API-key table as a fallback, so an API key sent as `Bearer <key>` is let in where only Bearer is accepted (a credential is valid under its own scheme only: seed §5, RFC 9110 §11.4).',
  seenIn:
    'A Passport bearer strategy whose verify callback tries `jwt.verify(token)` and then `ApiKey.findOne({ key: token })`; "one token field for both" in hand-written middleware.',
  hooks: {
    authenticator: async ({ identities }) => {
      const keys = (await identities()).apikeys;
      return {
        rescue: (parsed, _failure) => {
          if (parsed?.scheme !== 'bearer' || parsed.credentials === undefined) return undefined;
          // The fallback: the token is taken for a key.
          const owner = keys.get(hexSha256(parsed.credentials));
          return owner && Object.freeze({ ...owner.identity, scheme: 'bearer' as const });
        },
      };
    },
  },
});
