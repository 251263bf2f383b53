import { authFailure } from '../../auth/failures.ts';
import { accepted, unverifiedClaims } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-exp-milliseconds',
  layer: 'bearer tokens',
  bug: 'Compares `exp` (seconds since the epoch) with `Date.now()` (milliseconds), so every valid token looks expired and is refused.',
  seenIn: '`if (payload.exp < Date.now()) throw new Error("expired")`.',
  hooks: {
    authenticator: () => ({
      after: (parsed, identity, now) => {
        if (identity.scheme !== 'bearer') return accepted(identity);
        const { exp } = unverifiedClaims(parsed);
        // `if (payload.exp < Date.now())`: seconds against milliseconds, so every token has expired.
        return typeof exp === 'number' && exp < now
          ? authFailure('jwt_expired', 'token expired', 'bearer')
          : accepted(identity);
      },
    }),
  },
});
