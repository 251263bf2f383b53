import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

/** An Allow value without HEAD. */
function withoutHead(allow: string): string {
  return allow
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '' && m !== 'HEAD')
    .join(', ');
}

export default defineDefect({
  name: 'head-405',
  layer: 'routing',
  bug: 'Answers HEAD with 405, and leaves HEAD out of every Allow, although RFC 9110 §9.1 requires a general-purpose server to support HEAD wherever it supports GET.',
  seenIn: 'Routers that register GET handlers only (`@app.get` without `@app.head`), e.g. a FastAPI service.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) => {
        const route = exchange.match?.route;
        if (route === undefined) return reply;
        if (exchange.method !== 'HEAD') {
          const allow = reply.headers.allow;
          return allow === undefined
            ? reply
            : { ...reply, headers: { ...reply.headers, allow: withoutHead(String(allow)) } };
        }
        // The server writes no content for HEAD (mock/http/reply.ts), so the problem body stays unsent.
        return problem('method-not-allowed', 'HEAD is not supported on this path.', {
          allow: withoutHead(route.allow),
        });
      },
    }),
  },
});
