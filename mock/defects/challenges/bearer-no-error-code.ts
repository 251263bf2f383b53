import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'bearer-no-error-code',
  layer: 'challenges',
  bug: 'Never puts an `error` parameter on the Bearer challenge, not even for a refused token (RFC 6750 §3).',
  seenIn: 'A fixed `WWW-Authenticate: Bearer realm="…"` for every failure.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        reply.status === 400 || reply.status === 401
          ? mapChallenges(reply, (values) =>
              values.map((v) => v.replace(/, (?:error|error_description)="[^"]*"/g, '')),
            )
          : reply,
    }),
  },
});
