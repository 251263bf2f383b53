import { wrongPasswordRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-any-password',
  layer: 'credentials',
  bug: 'Accepts any password for a known Basic user-id: the password is never compared.',
  seenIn:
    'Stub authenticators left in place ("TODO: check password"); password checks that compare the wrong field.',
  hooks: {
    authenticator: wrongPasswordRescue(() => true),
  },
});
