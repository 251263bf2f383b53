import { authFailure } from '../../auth/failures.ts';
import { SCHEME_AND_SPACES } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

const CANONICAL: Readonly<Record<string, string>> = { bearer: 'Bearer', basic: 'Basic', apikey: 'Apikey' };

export default defineDefect({
  name: 'scheme-case-sensitive',
  layer: 'header parsing',
  bug: 'Matches the auth-scheme name case-sensitively: "bearer", "BASIC" or "aPiKeY" is treated as an unknown scheme (401) although RFC 9110 §11.1 makes it case-insensitive.',
  seenIn:
    "Hand-written middleware testing `header.startsWith('Bearer ')` or a case-sensitive regular expression.",
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const scheme = SCHEME_AND_SPACES.exec(request.values[0] ?? '')?.[1];
        const canonical = scheme === undefined ? undefined : CANONICAL[scheme.toLowerCase()];
        if (canonical === undefined || scheme === canonical) return undefined;
        // `value.startsWith('Bearer ')`: any other spelling is a scheme the server does not know.
        return authFailure('scheme_not_accepted', 'authentication scheme not recognised');
      },
    }),
  },
});
