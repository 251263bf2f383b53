import { mapChallenges } from '../edits/reply.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-challenge-bare-on-failure',
  layer: 'challenges',
  bug: 'Sends the Basic challenge without its realm (RFC 7617 §2) on the 401 for a failed credential; the 401 for a request without credentials keeps its realm.',
  seenIn:
    "FastAPI's HTTPBasic with a hand-written `raise HTTPException(401, headers={'WWW-Authenticate': 'Basic'})` after a failed password check.",
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) =>
        reply.status === 401 && exchange.req.headers.authorization !== undefined
          ? mapChallenges(reply, (values) => values.map((v) => (/^Basic\b/.test(v) ? 'Basic' : v)))
          : reply,
    }),
  },
});
