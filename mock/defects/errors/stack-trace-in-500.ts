import type { Reply } from '../../http/reply.ts';
import { detailOf } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'stack-trace-in-500',
  layer: 'errors',
  bug: "Writes the error's stack trace into the 500 body.",
  seenIn: "Express's default error handler outside production; json-server 0.17.",
  needs: ['fault'],
  hooks: {
    reply: () => {
      const render = (error: unknown): Reply => {
        const stack = error instanceof Error && error.stack ? error.stack : String(error);
        const body = Buffer.from(stack);
        return {
          status: 500,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length },
          body,
        };
      };
      return {
        render,
        // A 500 a stage decided (an injected fault): rendered the way this server renders what it caught.
        rewrite: (reply) => (reply.status === 500 ? render(new Error(detailOf(reply.body))) : reply),
      };
    },
  },
});
