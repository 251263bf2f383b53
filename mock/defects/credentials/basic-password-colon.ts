import { authFailure } from '../../auth/failures.ts';
import { accepted, basicCredentials } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-password-colon',
  layer: 'credentials',
  bug: 'Splits the decoded user-pass at every colon (`split(":")`), so a password containing ":" is cut short and never matches (RFC 7617 §2: only the first colon separates).',
  seenIn:
    "`const [user, pass] = decoded.split(':')` — common enough that RFC 7617 §2 warns about it explicitly.",
  hooks: {
    authenticator: () => {
      const cut = authFailure('basic_wrong_password', 'user name or password is not valid', 'basic');
      return {
        after: (parsed, identity) => {
          if (identity.scheme !== 'basic') return accepted(identity);
          // `const [user, pass] = decoded.split(':')`: everything after a second colon is lost.
          const password = basicCredentials(parsed)?.password ?? '';
          return password.includes(':') ? cut : accepted(identity);
        },
      };
    },
  },
});
