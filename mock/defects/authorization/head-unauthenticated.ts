import { refusedCredentials } from '../edits/refusals.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'head-unauthenticated',
  layer: 'authorization',
  bug: 'Checks credentials for GET only: HEAD on a protected path skips authentication and authorization and answers 200 with the header fields of the resource (RFC 9110 §9.3.2 makes HEAD identical to GET but for the content).',
  seenIn:
    'A guard written as `if (req.method === "GET") authenticate(req)` while the framework answers HEAD from the GET route (Express, Flask, Rails do); a gateway policy attached to GET only.',
  hooks: {
    reply: ({ serve }) => ({
      // The route's GET rule is already on the exchange (HEAD shares it): the resource as if every check passed.
      rewrite: (reply, exchange) =>
        exchange.method === 'HEAD' && refusedCredentials(reply, exchange) ? serve(exchange) : reply,
    }),
  },
});
