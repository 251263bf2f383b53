import { PROBLEM_TYPE } from '../../http/problem.ts';
import { withBody } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'problem-status-string',
  layer: 'errors',
  bug: 'Writes the problem+json `status` member as a string ("401"); RFC 9457 §3.1.2 makes it the number of the HTTP status.',
  seenIn: 'Error bodies built from templates or from string status fields.',
  hooks: {
    reply: () => ({
      rewrite: (reply) => {
        if (reply.headers['content-type'] !== PROBLEM_TYPE || reply.body === undefined) return reply;
        const body = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
        return withBody(reply, Buffer.from(JSON.stringify({ ...body, status: String(body.status) })));
      },
    }),
  },
});
