import { withHeader } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

const EVERY_METHOD = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

export default defineDefect({
  name: 'allow-lists-all-methods',
  layer: 'routing',
  bug: 'Sends a fixed Allow listing every method, the refused one included.',
  seenIn: 'A constant `Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS` copied from CORS settings.',
  hooks: {
    reply: () => ({
      rewrite: (reply) => (reply.status === 405 ? withHeader(reply, 'allow', EVERY_METHOD) : reply),
    }),
  },
});
