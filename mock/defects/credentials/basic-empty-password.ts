import { wrongPasswordRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-empty-password',
  layer: 'credentials',
  bug: 'Accepts a known Basic user-id with an empty password.',
  seenIn:
    'Basic auth checked by an LDAP simple bind: a bind with an empty password is an unauthenticated bind and succeeds (RFC 4513 §5.1.2).',
  hooks: {
    authenticator: wrongPasswordRescue(
      // An empty password binds anonymously, and the anonymous bind "succeeds".
      (password) => password === '',
    ),
  },
});
