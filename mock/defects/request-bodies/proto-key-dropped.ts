import { jsonReply } from '../../http/reply.ts';
import { defineDefect } from '../unit/define.ts';

const WRITES = new Set(['create', 'replace', 'patch']);

export default defineDefect({
  name: 'proto-key-dropped',
  layer: 'request bodies',
  bug: 'Copies the item with `Object.assign({}, body)` before storing it, so a member named "__proto__" sets the copy\'s prototype instead of being stored: the write answers 200 and the member is gone.',
  seenIn:
    '`Object.assign({}, req.body)` or a for-in copy with `target[key] = value` (the shape of every JavaScript prototype-pollution bug); lodash `merge` before 4.17.12.',
  hooks: {
    reply: ({ engine }) => ({
      rewrite: async (reply, exchange) => {
        const { match, rule } = exchange;
        if (
          reply.status !== 200 ||
          reply.body === undefined ||
          !rule ||
          !WRITES.has(rule.operation) ||
          !match
        )
          return reply;
        const item = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
        if (!Object.hasOwn(item, '__proto__')) return reply;
        // [[Set]] of "__proto__" changes the prototype: the member is not copied.
        const copy = Object.assign({}, item);
        const id = typeof item.id === 'string' ? item.id : match.id;
        const stored = await engine.replace(
          match.route.resource,
          match.route.kind === 'singular' ? undefined : id,
          copy,
        );
        return jsonReply(200, stored ?? copy);
      },
    }),
  },
});
