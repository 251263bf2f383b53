import { challenge } from '../../http/challenge.ts';
import { authorizationValues, refusal } from '../../pipeline/credentials.ts';
import type { AccessRule } from '../../routing/router.ts';
import { ALL_SCHEMES } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'public-requires-auth',
  layer: 'authorization',
  bug: 'Applies authentication to every route, public ones included: GET /users without credentials gets 401.',
  seenIn: 'Authentication middleware mounted globally before the public routes.',
  hooks: {
    reply: ({ realm, authenticator }) => {
      // Authentication mounted in front of every route: a public route takes any scheme, and requires one.
      const anyScheme: AccessRule = {
        public: false,
        closed: false,
        schemes: ALL_SCHEMES,
        roles: [],
        scopes: [],
        challenges: ALL_SCHEMES.map((scheme) => challenge(scheme, realm)),
        operation: 'list',
      };
      return {
        rewrite: async (reply, exchange) => {
          if (exchange.rule?.public !== true) return reply;
          const values = authorizationValues(exchange.req.rawHeaders);
          const result = await authenticator.authenticate(values, ALL_SCHEMES, exchange.now);
          return result.ok ? reply : refusal(result, anyScheme, realm);
        },
      };
    },
  },
});
