import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

/** The methods the catch-all route takes. */
const CATCH_ALL = 'GET, HEAD';

export default defineDefect({
  name: 'unknown-path-405',
  layer: 'routing',
  bug: 'Answers a write to a path that does not exist (POST, PUT, PATCH, DELETE) with 405 and `Allow: GET, HEAD`, as if a resource were there: a catch-all GET route (an SPA fallback) matches every path, so the router refuses the method instead of the path.',
  seenIn:
    'Starlette/FastAPI `Route("/{path:path}", methods=["GET"])` and Spring MVC catch-all `@GetMapping("/**")` fallbacks, which make every unknown path answer other methods with 405.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) =>
        reply.status === 404 && exchange.match === undefined && !['GET', 'HEAD'].includes(exchange.method)
          ? problem('method-not-allowed', `${exchange.method} is not allowed here.`, { allow: CATCH_ALL })
          : reply,
    }),
  },
});
