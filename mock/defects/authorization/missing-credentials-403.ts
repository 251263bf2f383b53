import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'missing-credentials-403',
  layer: 'authorization',
  bug: 'Answers 403 (no challenge) to a request without credentials, where 401 is due.',
  seenIn:
    "Spring Security's Http403ForbiddenEntryPoint; servers that treat anonymous as an identity without rights.",
  hooks: {
    reply: () => {
      const denied = problem('insufficient-permissions', 'Access denied.');
      return {
        rewrite: (reply, exchange) =>
          reply.status === 401 && exchange.outcome === 'missing' ? denied : reply,
      };
    },
  },
});
