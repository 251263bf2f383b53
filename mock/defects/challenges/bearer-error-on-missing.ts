import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'bearer-error-on-missing',
  layer: 'challenges',
  bug: 'Puts `error="invalid_token"` on the Bearer challenge of a request that sent no credentials at all (RFC 6750 §3.1: no error code then).',
  seenIn: 'Bearer middlewares that report "missing token" as invalid_token.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) =>
        reply.status === 401 && exchange.outcome === 'missing'
          ? mapChallenges(reply, (values) =>
              values.map((v) =>
                /^Bearer /.test(v)
                  ? `${v}, error="invalid_token", error_description="No access token was provided"`
                  : v,
              ),
            )
          : reply,
    }),
  },
});
