import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'realm-unquoted',
  layer: 'challenges',
  bug: 'Sends the realm as a bare token (`realm=gatecheck`) instead of a quoted-string (RFC 9110 §11.5).',
  seenIn: 'Challenges assembled by string concatenation.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        mapChallenges(reply, (values) =>
          values.map((v) => v.replace(/realm="([!#$%&'*+\-.^_`|~0-9A-Za-z]+)"/, 'realm=$1')),
        ),
    }),
  },
});
