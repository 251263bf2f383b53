import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'oversized-body-500',
  layer: 'request bodies',
  bug: "Answers a body over the size limit with 500: the body parser's 413 error reaches an error handler that ignores its status.",
  seenIn:
    "body-parser's `PayloadTooLargeError` (status 413) rendered by an Express error handler that always sends 500.",
  hooks: {
    reply: () => {
      const crashed = problem('internal-error', 'The server met an unexpected condition.', {
        connection: 'close',
      });
      return { rewrite: (reply) => (reply.status === 413 ? crashed : reply) };
    },
  },
});
