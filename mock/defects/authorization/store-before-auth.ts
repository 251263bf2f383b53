import { refusedCredentials } from '../edits/refusals.ts';
import { defineDefect } from '../unit/define.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export default defineDefect({
  name: 'store-before-auth',
  layer: 'authorization',
  bug: 'Processes a write before it authenticates it: a POST, PUT or DELETE with missing, wrong, malformed or insufficient credentials is stored, changed or deleted first, then answered 400, 401 or 403.',
  seenIn:
    'Handlers that save the body and then call `authorize()`; an ORM save fired by a validation hook that runs before the auth guard; authorization done in a response interceptor.',
  hooks: {
    reply: ({ serve }) => ({
      rewrite: async (reply, exchange) => {
        if (!WRITES.has(exchange.method) || !refusedCredentials(reply, exchange)) return reply;
        // The write goes through (the body is still unread), whatever it answers; the client sees the refusal.
        await serve(exchange);
        return reply;
      },
    }),
  },
});
