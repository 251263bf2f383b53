import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'bearer-error-wrong-status',
  layer: 'challenges',
  bug: 'Labels a malformed Bearer request (400) `error="invalid_token"`, the code RFC 6750 §3.1 ties to 401.',
  seenIn: 'One error code for every token failure.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        reply.status === 400
          ? mapChallenges(reply, (values) =>
              values.map((v) => v.replace('error="invalid_request"', 'error="invalid_token"')),
            )
          : reply,
    }),
  },
});
