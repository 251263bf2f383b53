import { noContent } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'delete-204',
  layer: 'success statuses',
  bug: 'Answers 204 No Content to a successful DELETE; the seed (§4 rule 2) says 200.',
  seenIn: 'ASP.NET Core Web API scaffolding (`return NoContent()`), Rails scaffolds (`head :no_content`).',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) =>
        reply.status === 200 && exchange.rule?.operation === 'remove' ? noContent(reply) : reply,
    }),
  },
});
