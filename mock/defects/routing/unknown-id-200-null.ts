import { jsonReply } from '../../http/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'unknown-id-200-null',
  layer: 'routing',
  bug: 'Answers 200 with `null` for an id the collection does not hold.',
  seenIn: '`res.json(items.find((i) => i.id === id))` without a not-found branch.',
  hooks: {
    reply: () => {
      const empty = jsonReply(200, null);
      return {
        rewrite: (reply, exchange) =>
          reply.status === 404 && exchange.rule?.operation === 'read' ? empty : reply,
      };
    },
  },
});
