import { noContent } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'put-204',
  layer: 'success statuses',
  bug: 'Answers 204 No Content to a successful PUT; the seed (§4 rule 2) says 200.',
  seenIn: 'ASP.NET Core Web API scaffolding (`return NoContent()` from PUT); many REST guides.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) =>
        reply.status === 200 && exchange.rule?.operation === 'replace' ? noContent(reply) : reply,
    }),
  },
});
