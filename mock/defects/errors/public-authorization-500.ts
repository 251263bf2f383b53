import { authorizationValues } from '../../pipeline/credentials.ts';
import { ALL_SCHEMES } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'public-authorization-500',
  layer: 'errors',
  bug: 'Parses an Authorization header on public routes too ("optional authentication") and crashes (500) when it is malformed.',
  seenIn: 'Optional-auth middleware that decodes any header present without handling bad input.',
  hooks: {
    reply: ({ authenticator }) => ({
      rewrite: async (reply, exchange) => {
        if (exchange.rule?.public !== true) return reply;
        const values = authorizationValues(exchange.req.rawHeaders);
        if (values.length === 0) return reply;
        // Optional authentication: a header that is there is decoded, and a malformed one is not handled.
        const result = await authenticator.authenticate(values, ALL_SCHEMES, exchange.now);
        if (!result.ok && result.status === 400) {
          throw new TypeError("Cannot read properties of undefined (reading 'split')");
        }
        return reply;
      },
    }),
  },
});
