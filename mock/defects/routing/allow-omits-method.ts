import { withHeader } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'allow-omits-method',
  layer: 'routing',
  bug: "Leaves POST out of a 405's Allow, although the path supports it (RFC 9110 §15.5.6: Allow lists the supported methods).",
  seenIn:
    'An Allow built from the read routes only: `DELETE /users` → `Allow: GET, HEAD, OPTIONS` beside a working `POST /users`.',
  hooks: {
    reply: () => ({
      rewrite: (reply) => {
        if (reply.status !== 405) return reply;
        const allow = String(reply.headers.allow ?? '');
        const kept = allow
          .split(',')
          .map((m) => m.trim())
          .filter((m) => m !== '' && m !== 'POST');
        return withHeader(reply, 'allow', kept.join(', '));
      },
    }),
  },
});
