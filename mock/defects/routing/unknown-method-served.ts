import { defineDefect } from '../unit/define.ts';

/** RFC 9110 §9.3 and §18.2 (PATCH: RFC 5789): the methods a framework registers handlers and guards for. */
const STANDARD = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

export default defineDefect({
  name: 'unknown-method-served',
  layer: 'routing',
  bug: 'Serves a method outside RFC 9110 (PROPFIND, QUERY, an unregistered one) on a protected path as a GET, without authentication: the guard is registered per standard method and a catch-all route answers the rest.',
  seenIn:
    'Guards attached with `app.get`/`app.post`… beside an `app.all("*")` or `@RequestMapping` without a method; WebDAV methods passed through a proxy that filters GET and POST only.',
  hooks: {
    reply: ({ serve }) => ({
      rewrite: (reply, exchange) => {
        const rule = exchange.match?.route.rules.get('GET');
        if (reply.status !== 405 || STANDARD.has(exchange.method) || rule === undefined) return reply;
        exchange.rule = rule;
        return serve(exchange);
      },
    }),
  },
});
