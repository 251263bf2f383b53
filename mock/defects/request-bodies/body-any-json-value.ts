import { jsonReply } from '../../http/reply.ts';
import { detailOf } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'body-any-json-value',
  layer: 'request bodies',
  bug: 'Takes a JSON value of any type as a new item: a string, number or null where an object is expected is answered 200.',
  seenIn: '`express.json({ strict: false })` with no schema check; stores that save whatever value arrives.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        reply.status === 400 && detailOf(reply.body) === 'The request body must be a JSON object.'
          ? jsonReply(200, {})
          : reply,
    }),
  },
});
