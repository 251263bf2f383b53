import { withHeader } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'no-www-authenticate',
  layer: 'challenges',
  bug: 'Answers 401 without a WWW-Authenticate field (RFC 9110 §15.5.2: a 401 MUST carry one).',
  seenIn: 'JSON APIs that send 401 with an error body only.',
  hooks: {
    reply: () => ({
      rewrite: (reply) => (reply.status === 401 ? withHeader(reply, 'www-authenticate', undefined) : reply),
    }),
  },
});
