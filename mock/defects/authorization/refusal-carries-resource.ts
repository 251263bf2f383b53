import { refusedCredentials } from '../edits/refusals.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'refusal-carries-resource',
  layer: 'authorization',
  bug: 'Sends the resource with the refusal: the status is set to 401 or 403 and the handler runs on, so the body of the refusal on a protected GET is the protected resource.',
  seenIn:
    'The missing `return` after `res.status(401)` in Express middleware (`if (!user) res.status(401).json(err); next()` answers with the first body, a buffered framework with the last); `abort(401)` written as a log call.',
  hooks: {
    reply: ({ serve }) => ({
      rewrite: async (reply, exchange) => {
        if (exchange.method !== 'GET' || !refusedCredentials(reply, exchange)) return reply;
        const served = await serve(exchange);
        if (served.status !== 200 || served.body === undefined) return reply;
        // The refusal's status and challenges; the resource's body and content type.
        return {
          status: reply.status,
          headers: {
            ...reply.headers,
            'content-type': served.headers['content-type'],
            'content-length': served.body.length,
          },
          body: served.body,
        };
      },
    }),
  },
});
