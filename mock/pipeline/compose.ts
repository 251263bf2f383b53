/**
 * Runs the stages in order until one answers. Synchronous stages stay synchronous (a public GET on the hot
 * path never waits on a promise); only a stage that returns a promise makes the rest wait for it.
 */

import { INTERNAL_ERROR } from '../http/problem.ts';
import type { Reply } from '../http/reply.ts';
import type { Exchange, Stage, StageResult } from './exchange.ts';

export type Pipeline = (exchange: Exchange) => Reply | Promise<Reply>;

export function compose(stages: readonly Stage[]): Pipeline {
  const count = stages.length;
  // An async function rather than a `.then` callback: no closure made per request.
  const resume = async (pending: Promise<StageResult>, next: number, exchange: Exchange): Promise<Reply> => {
    const reply = await pending;
    return reply === undefined ? from(next, exchange) : reply;
  };
  const from = (start: number, exchange: Exchange): Reply | Promise<Reply> => {
    for (let i = start; i < count; i++) {
      const out = (stages[i] as Stage)(exchange);
      if (out === undefined) continue;
      if (out instanceof Promise) return resume(out, i + 1, exchange);
      return out;
    }
    // The handler stage always answers; falling off the end is a wiring bug.
    return INTERNAL_ERROR;
  };
  return (exchange) => from(0, exchange);
}
