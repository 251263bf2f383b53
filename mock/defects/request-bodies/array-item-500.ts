import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'array-item-500',
  layer: 'request bodies',
  bug: 'Crashes on a JSON array posted as an item (it reads `body.name` of each element, or assigns `item.id` on the array and fails the schema step after): 500 where the client sent a wrong body (400).',
  seenIn:
    '`express.json()` accepts arrays by default (`strict` only rules out scalars); a handler that assumes an object and dereferences a member of `undefined`.',
  hooks: {
    reply: () => {
      const crashed = problem('internal-error', 'The server met an unexpected condition.');
      // The handler recorded why it refused the body (mock/http/body.ts): only an array crashes this server.
      return { rewrite: (reply, exchange) => (exchange.outcome === 'body_array' ? crashed : reply) };
    },
  },
});
