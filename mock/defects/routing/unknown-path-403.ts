import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'unknown-path-403',
  layer: 'routing',
  bug: 'Answers 403 for a path that does not exist, even to a valid admin.',
  seenIn:
    'Amazon S3 answers 403 AccessDenied for a missing key when the caller may not list the bucket; deny-by-default gateways.',
  hooks: {
    reply: () => {
      const denied = problem('insufficient-permissions', 'Access denied.');
      return {
        rewrite: (reply, exchange) => (reply.status === 404 && exchange.match === undefined ? denied : reply),
      };
    },
  },
});
