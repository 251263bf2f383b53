import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-challenge-bare',
  layer: 'challenges',
  bug: 'Sends the Basic challenge without its realm parameter (`WWW-Authenticate: Basic`), which RFC 7617 §2 requires.',
  seenIn: 'A bare `Basic` challenge, common in hand-written servers.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        mapChallenges(reply, (values) => values.map((v) => (/^Basic /.test(v) ? 'Basic' : v))),
    }),
  },
});
