import { withHeader } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'method-no-allow',
  layer: 'routing',
  bug: 'Answers 405 without the Allow field RFC 9110 §15.5.6 requires.',
  seenIn: 'Frameworks that raise "method not allowed" without listing the methods.',
  hooks: {
    reply: () => ({
      rewrite: (reply) => (reply.status === 405 ? withHeader(reply, 'allow', undefined) : reply),
    }),
  },
});
