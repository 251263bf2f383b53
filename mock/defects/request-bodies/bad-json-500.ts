import { problem } from '../../http/problem.ts';
import { detailOf } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'bad-json-500',
  layer: 'request bodies',
  bug: "Lets the JSON parser's exception escape, so a write whose body is not JSON answers 500 instead of 400.",
  seenIn:
    '`JSON.parse(body)` outside a try block; error handlers that map every exception to 500 (Express without a `SyntaxError` case).',
  hooks: {
    reply: () => {
      const crashed = problem('internal-error', 'The server met an unexpected condition.');
      return {
        rewrite: (reply) =>
          reply.status === 400 && detailOf(reply.body) === 'The request body is not valid JSON.'
            ? crashed
            : reply,
      };
    },
  },
});
