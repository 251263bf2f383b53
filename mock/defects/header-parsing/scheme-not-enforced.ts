import { ALL_SCHEMES } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'scheme-not-enforced',
  layer: 'header parsing',
  bug: 'Accepts every scheme it knows on every route: valid API-key credentials open a route whose policy accepts only Bearer or Basic.',
  seenIn: 'Authentication middleware registered globally with all strategies instead of per route.',
  hooks: {
    authenticator: () => ({
      before: (request) => {
        request.accepted = ALL_SCHEMES;
        return undefined;
      },
    }),
  },
});
