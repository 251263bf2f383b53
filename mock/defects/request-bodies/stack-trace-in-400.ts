import { detailOf } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'stack-trace-in-400',
  layer: 'request bodies',
  bug: "Answers a write whose body is not JSON with 400, as it should, but writes the parser's stack trace into the answer.",
  seenIn:
    "Express's default error handler outside production (`NODE_ENV` unset) rendering body-parser's SyntaxError with its stack; frameworks in debug mode.",
  hooks: {
    reply: () => ({
      rewrite: (reply) => {
        if (reply.status !== 400 || detailOf(reply.body) !== 'The request body is not valid JSON.')
          return reply;
        let stack = 'SyntaxError';
        try {
          JSON.parse('{"name": ');
        } catch (error) {
          stack = (error as Error).stack ?? String(error);
        }
        const body = Buffer.from(`${stack}\n`);
        return {
          status: 400,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length },
          body,
        };
      },
    }),
  },
});
