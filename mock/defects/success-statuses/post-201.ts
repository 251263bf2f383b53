import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'post-201',
  layer: 'success statuses',
  bug: 'Answers 201 Created to a successful POST; the seed (§4 rule 2) says 200.',
  seenIn: "json-server's own HTTP layer; most REST scaffolding.",
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) =>
        reply.status === 200 && exchange.rule?.operation === 'create' ? { ...reply, status: 201 } : reply,
    }),
  },
});
