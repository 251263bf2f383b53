import { verifyPassword } from '../../auth/password-hash.ts';
import { wrongPasswordRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-password-any-user',
  layer: 'credentials',
  bug: "Accepts a known Basic user-id with any identity's password: the password is looked up among all users, not checked against the named one.",
  seenIn:
    '`SELECT 1 FROM users WHERE password_hash = ?` without the user-id; "does this password exist" checks written as login checks.',
  hooks: {
    authenticator: wrongPasswordRescue(async (password, users) => {
      for (const user of users.values()) if (await verifyPassword(password, user.hash)) return true;
      return false;
    }),
  },
});
