import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'forbidden-as-401',
  layer: 'authorization',
  bug: 'Answers 401 with the plain challenges where 403 is due: an authenticated identity lacking the role or scope is told to authenticate.',
  seenIn: 'Authorization failures routed to the authentication entry point; "401 means no access" APIs.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) => {
        const refused = exchange.outcome === 'insufficient_role' || exchange.outcome === 'insufficient_scope';
        if (reply.status !== 403 || !refused || exchange.rule === undefined) return reply;
        return problem('authentication-required', 'Authentication required.', {
          'www-authenticate': exchange.rule.challenges as string[],
        });
      },
    }),
  },
});
