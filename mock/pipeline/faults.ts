/**
 * Stage 7, faults (500, latency, dropped connection), just before the handler: the request has passed every
 * check, and then the server "meets an unexpected condition" (seed §7, 500). Idle (no rule in force and no
 * header, or the header not honoured): one property read.
 */

import type { FaultDecision, FaultInjector } from '../faults/injector.ts';
import { FAULT_HEADER } from '../faults/settings.ts';
import { INTERNAL_ERROR, problem } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import { missing, type Stage, type StageResult } from './exchange.ts';
import { note } from './notes.ts';

/**
 * Returned for a dropped connection: the app recognises it, destroys the connection without writing
 * anything, and journals status 0 (mock/app.ts).
 */
export const DROPPED: Reply = Object.freeze({ ...INTERNAL_ERROR });

export function faultStage(injector: FaultInjector): Stage {
  return (exchange) => {
    const value = injector.headerEnabled ? exchange.req.headers[FAULT_HEADER] : undefined;
    if (value === undefined && injector.idle) return undefined;
    const route = (exchange.match ?? missing('match')).route;
    const decision = injector.decide(route, exchange.method, typeof value === 'string' ? value : undefined);
    if (decision === undefined) return undefined;
    if ('invalid' in decision) {
      note(exchange, 'fault_header_invalid', decision.invalid);
      return problem('bad-request', decision.invalid);
    }
    note(exchange, 'fault_injected', describeFault(decision));
    if (decision.latencyMs === 0) return end(decision);
    return new Promise<StageResult>((resolve) => {
      // Unref'd: a delayed answer must not keep a stopping process alive.
      setTimeout(() => resolve(end(decision)), decision.latencyMs).unref();
    });
  };
}

function end(decision: FaultDecision): StageResult {
  if (decision.end === 'error') {
    return problem(
      'internal-error',
      `The mock met an unexpected condition and could not fulfil the request (fault injected by ${decision.source}).`,
      undefined,
      { code: 'fault_injected' },
    );
  }
  return decision.end === 'drop' ? DROPPED : undefined;
}

function describeFault(decision: FaultDecision): string {
  const parts: string[] = [];
  if (decision.latencyMs > 0) parts.push(`latency ${decision.latencyMs} ms`);
  if (decision.end === 'error') parts.push('500');
  if (decision.end === 'drop') parts.push('connection dropped');
  return `${parts.join(', then ')} (from ${decision.source})`;
}
