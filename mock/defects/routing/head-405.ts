import { problem } from '../../http/problem.ts';
import { defineDefect } from '../define.ts';

export default defineDefect({
  name: 'head-405',
  layer: 'routing',
  bug: 'Answers HEAD with 405, and leaves HEAD out of every Allow, although RFC 9110 §9.1 requires a general-purpose server to support HEAD wherever it supports GET.',
  seenIn: 'Routers that register GET handlers only (`@app.get` without `@app.head`), e.g. a FastAPI service.',
  hooks: {
    reply: () => ({
      rewrite: (reply, exchange) => {
        const allow = reply.headers.allow;
        const without =
          allow === undefined
            ? undefined
            : String(allow)
                .split(',')
                .map((m) => m.trim())
                .filter((m) => m !== '' && m !== 'HEAD')
                .join(', ');
        if (exchange.method !== 'HEAD' || reply.status === 404) {
          return without === undefined ? reply : { ...reply, headers: { ...reply.headers, allow: without } };
        }
        // The server writes no content for HEAD (mock/http/reply.ts), so the problem body stays unsent.
        return problem(
          'method-not-allowed',
          'HEAD is not supported on this path.',
          without ? { allow: without } : undefined,
        );
      },
    }),
  },
});
