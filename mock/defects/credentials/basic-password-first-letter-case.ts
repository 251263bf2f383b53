import { verifyPassword } from '../../auth/password-hash.ts';
import { wrongPasswordRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

/** The password with its first character in the other letter case (undefined when it has no case). */
function firstLetterToggled(password: string): string | undefined {
  const [first = '', ...rest] = [...password];
  const toggled = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  return toggled === first ? undefined : `${toggled}${rest.join('')}`;
}

export default defineDefect({
  name: 'basic-password-first-letter-case',
  layer: 'credentials',
  bug: 'Also accepts a Basic password whose first letter is in the other case ("Wonderland-admin" for "wonderland-admin"), a tolerance for phone keyboards that capitalise the first letter: the password is no longer compared whole (RFC 7617 §2; RFC 7613 OpaqueString keeps case).',
  seenIn:
    "Login services that retry the password with its first letter's case flipped (and with caps lock inverted) before refusing it.",
  hooks: {
    authenticator: wrongPasswordRescue(async (password, _users, user) => {
      const retried = firstLetterToggled(password);
      return retried !== undefined && (await verifyPassword(retried, user.hash));
    }),
  },
});
