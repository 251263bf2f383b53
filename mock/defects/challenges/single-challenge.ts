import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'single-challenge',
  layer: 'challenges',
  bug: "Sends only the first accepted scheme's challenge on a route that accepts several.",
  seenIn: 'Servers with one hard-coded `WWW-Authenticate: Bearer` whatever the route accepts.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        reply.status === 401 ? mapChallenges(reply, (values) => values.slice(0, 1)) : reply,
    }),
  },
});
