/**
 * A fuzz client whose requests go out in slots of the run's scheduler (specs/run/scheduler.ts): paced to the
 * target's declared limit, and a rate-limited answer is waited out and the case re-sent, so the fuzz
 * engine's judges only see answers that are not rate limiting. When the run's budget cannot afford a case,
 * `send` rejects with RunBudgetExhausted and the engine stops the rule there (specs/fuzz/engine/property.ts).
 */
import { pathnameOf } from '../../lib/memo.ts';
import type { Scheduler } from '../../run/scheduler.ts';
import type { Client, Outcome, WireRequest } from './types.ts';

/** Sees every answer, limited ones waited out included (the observers, specs/observe/). */
export type ObserveOutcome = (request: WireRequest, outcome: Outcome) => void;

export function scheduledClient(client: Client, scheduler: Scheduler, observe?: ObserveOutcome): Client {
  const head = (o: Outcome) => (o.kind === 'response' ? o : undefined);
  // A control request (the same client, outside the slots): tells a ban's 403 from the target's answer. Made
  // once per client; a request without exactly one credential shares one options object.
  const control = async (path: string, value: string | undefined) =>
    head(
      await client.send({
        method: 'GET',
        url: `${scheduler.target}${path}`,
        authorization: value === undefined ? [] : [value],
      }),
    );
  const anonymous = { control };
  return {
    name: client.name,
    canSend: (request) => client.canSend(request),
    send: (request) => {
      const bucket = scheduler.bucketOf(pathnameOf(request.url), request.authorization, request.method);
      const send = async () => {
        const outcome = await client.send(request);
        observe?.(request, outcome);
        return outcome;
      };
      const only = request.authorization.length === 1 ? request.authorization[0] : undefined;
      return scheduler.run(
        bucket,
        send,
        head,
        only === undefined ? anonymous : { control, authorization: only },
      );
    },
  };
}
