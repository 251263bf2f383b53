import { accepted, elevated } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-skips-authorization',
  layer: 'authorization',
  bug: 'Treats every API key as a trusted service account and skips the role and scope checks for it.',
  seenIn: 'Service-account shortcuts: "requests with an API key come from our own backend".',
  hooks: {
    authenticator: ({ grants }) => ({
      after: (_parsed, identity) =>
        accepted(identity.scheme === 'apikey' ? elevated(identity, grants) : identity),
    }),
  },
});
