import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'deep-json-500',
  layer: 'request bodies',
  bug: 'Walks the parsed body recursively (a validator, a sanitizer) without a depth limit and does not catch the stack overflow: a body nested deeper than the walker can go — still well under the body size limit — answers 500 where a limit is a 400 (RFC 8259 §9).',
  seenIn:
    'A recursive `sanitize(obj)` or class-validator `@ValidateNested` on user JSON; `JSON.parse` with a reviver (recursive in V8) outside a try block.',
  hooks: {
    reply: () => {
      const crashed = problem('internal-error', 'The server met an unexpected condition.');
      // The body reader recorded that the body was nested past the parser's stack (mock/http/body.ts).
      return { rewrite: (reply, exchange) => (exchange.outcome === 'body_too_deep' ? crashed : reply) };
    },
  },
});
