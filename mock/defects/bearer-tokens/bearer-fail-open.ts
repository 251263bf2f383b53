import type { Identity } from '../../auth/types.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'bearer-fail-open',
  layer: 'bearer tokens',
  bug: 'Fails open: a Bearer credential that cannot even be decoded as a JWT makes the verifier throw, and the error handler lets the request through as an anonymous caller.',
  seenIn: 'Authentication middleware whose catch block calls `next()` (CWE-636, not failing securely).',
  hooks: {
    authenticator: () => {
      // `try { verify(token) } catch { next() }`: the caller goes on as nobody in particular.
      const anonymous: Identity = Object.freeze({ id: 'anonymous', scheme: 'bearer', roles: [], scopes: [] });
      return { rescue: (_parsed, failure) => (failure.code === 'jwt_invalid' ? anonymous : undefined) };
    },
  },
});
