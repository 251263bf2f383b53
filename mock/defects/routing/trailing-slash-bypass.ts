import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'trailing-slash-bypass',
  layer: 'routing',
  bug: 'Routes a path with a trailing slash (`/admin/`) to the resource of the path without it, while the guard matches the exact path only: with a trailing slash, a protected GET answers 200 without credentials.',
  seenIn:
    'Express (non-strict routing, the default) behind middleware testing `req.path === "/admin"`; Spring MVC trailing-slash matching beside a security rule for the exact path (CVE-2016-5007).',
  hooks: {
    reply: ({ router, serve }) => ({
      rewrite: (reply, exchange) => {
        if (reply.status !== 404 || exchange.match !== undefined) return reply;
        if (exchange.method !== 'GET' && exchange.method !== 'HEAD') return reply;
        const { path } = exchange;
        if (path.length < 2 || !path.endsWith('/')) return reply;
        const match = router.match(path.slice(0, -1));
        const rule = match?.route.rules.get(exchange.method);
        if (match === undefined || rule === undefined) return reply;
        // The router's match, without the guard: no credentials looked at, no role asked for.
        exchange.match = match;
        exchange.rule = rule;
        return serve(exchange);
      },
    }),
  },
});
