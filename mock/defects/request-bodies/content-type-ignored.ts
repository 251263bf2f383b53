import { jsonReply } from '../../http/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'content-type-ignored',
  layer: 'request bodies',
  bug: 'Reads every write body as JSON whatever its Content-Type says, so a body declared text/plain is taken (200) instead of 415.',
  seenIn:
    '`JSON.parse(await readBody(req))` without looking at Content-Type; body parsers configured with `type: "*/*"`.',
  hooks: {
    reply: () => ({
      // The body the mock refused unread is taken as JSON: the write "succeeds".
      rewrite: (reply) => (reply.status === 415 ? jsonReply(200, {}) : reply),
    }),
  },
});
