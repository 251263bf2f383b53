import { authFailure } from '../../auth/failures.ts';
import { SCHEME_AND_SPACES } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'scheme-single-space',
  layer: 'header parsing',
  bug: 'Splits the field value on single spaces (`value.split(" ")[1]`), so "Bearer  <token>" with two spaces yields an empty token and a 400, although RFC 9110 §11.4 allows 1*SP.',
  seenIn: "`authorization.split(' ')[1]`, the most common hand-written token extraction.",
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const spaces = SCHEME_AND_SPACES.exec(request.values[0] ?? '')?.[2];
        if (spaces === undefined || spaces.length === 1) return undefined;
        // `value.split(' ')[1]` is '' when two spaces follow the scheme.
        return authFailure('malformed', 'credentials are empty');
      },
    }),
  },
});
