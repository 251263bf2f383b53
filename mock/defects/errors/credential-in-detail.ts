import { withBody } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'credential-in-detail',
  layer: 'errors',
  bug: 'Repeats the refused Authorization value in the 401 problem detail, handing the credential to every log and cache on the way (RFC 6750 §5.1).',
  seenIn:
    '`detail: f"invalid credentials: {authorization}"` — an error message written for debugging and left in.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) => {
        const sent = exchange.req.headers.authorization;
        if (reply.status !== 401 || sent === undefined || reply.body === undefined) return reply;
        const body = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
        return withBody(
          reply,
          Buffer.from(JSON.stringify({ ...body, detail: `invalid credentials: ${sent}` })),
        );
      },
    }),
  },
});
