import type { Reply } from '../../http/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'rate-limit-never-resets',
  layer: 'rate limiting',
  bug: 'Keeps counting across windows: once limited, a client stays limited, whatever Retry-After said.',
  seenIn: 'Fixed-window counters kept with Redis `INCR` and no `EXPIRE`.',
  needs: ['rateLimit'],
  hooks: {
    reply: () => {
      // INCR without EXPIRE: a key once over its limit stays over it.
      const limited = new Map<string, Reply>();
      return {
        rewrite: (reply, exchange) => {
          const key = exchange.clientKey;
          if (key === undefined) return reply;
          if (reply.status === 429) {
            limited.set(key, reply);
            return reply;
          }
          return reply.status < 400 ? (limited.get(key) ?? reply) : reply;
        },
      };
    },
  },
});
