import { jsonReply } from '../../http/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'errors-as-200',
  layer: 'errors',
  bug: 'Answers unexpected conditions with 200 and an `{"error": …}` body instead of 500.',
  seenIn: 'RPC-style APIs that always answer 200 and put the outcome in the body.',
  needs: ['fault'],
  hooks: {
    reply: () => {
      const render = () => jsonReply(200, { error: 'Internal Server Error' });
      // A 500 a stage decided (an injected fault) and an exception the pipeline threw look the same: 200.
      return { render, rewrite: (reply) => (reply.status === 500 ? render() : reply) };
    },
  },
});
