import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-charset-latin1',
  layer: 'challenges',
  bug: 'Announces `charset="ISO-8859-1"` in the Basic challenge; RFC 7617 §2.1 allows only "UTF-8".',
  seenIn: 'Servers that decode Basic credentials as Latin-1 and say so.',
  hooks: {
    reply: () => ({
      rewrite: (reply) =>
        mapChallenges(reply, (values) =>
          values.map((v) => v.replace('charset="UTF-8"', 'charset="ISO-8859-1"')),
        ),
    }),
  },
});
