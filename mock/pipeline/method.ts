/**
 * Stage 2, method (405). OPTIONS is answered here, before credentials, so browsers' CORS preflights (which
 * never carry Authorization) succeed. A method the route does not list → 405 with Allow (RFC 9110 §15.5.6).
 */

import { missing, type Stage } from './exchange.ts';

export function methodStage(): Stage {
  return (exchange) => {
    const route = exchange.match?.route ?? missing('match');
    if (exchange.method === 'OPTIONS') return route.options;
    const rule = route.rules.get(exchange.method);
    if (rule === undefined) return route.methodNotAllowed;
    exchange.rule = rule;
    return undefined;
  };
}
