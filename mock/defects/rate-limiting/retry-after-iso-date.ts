import { withHeader } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'retry-after-iso-date',
  layer: 'rate limiting',
  bug: 'Sends Retry-After as an ISO 8601 timestamp (`2026-01-01T00:00:00.000Z`), which is neither delay-seconds nor an HTTP-date (RFC 9110 §10.2.3).',
  seenIn: '`retryAt.toISOString()` where `toUTCString()` or a number of seconds was meant.',
  needs: ['rateLimit'],
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) => {
        const value = reply.headers['retry-after'];
        if (value === undefined) return reply;
        const at = new Date(exchange.now + Number(value) * 1000);
        return withHeader(reply, 'retry-after', at.toISOString());
      },
    }),
  },
});
