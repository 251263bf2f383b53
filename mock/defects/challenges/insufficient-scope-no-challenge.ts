import { withHeader } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'insufficient-scope-no-challenge',
  layer: 'challenges',
  bug: 'Refuses a Bearer token lacking the role with a bare 403, without the `error="insufficient_scope"` challenge.',
  seenIn: 'Most APIs: the 403 is written by generic authorization code that knows nothing of Bearer.',
  hooks: {
    reply: () => ({
      rewrite: (reply) => (reply.status === 403 ? withHeader(reply, 'www-authenticate', undefined) : reply),
    }),
  },
});
