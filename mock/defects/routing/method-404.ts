import { NOT_FOUND } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'method-404',
  layer: 'routing',
  bug: 'Answers 404 for a known path with an unsupported method, where 405 is due.',
  seenIn:
    'Express and json-server 0.17: a route table keyed by method and path finds nothing and falls through to 404.',
  hooks: {
    reply: () => ({ rewrite: (reply) => (reply.status === 405 ? NOT_FOUND : reply) }),
  },
});
