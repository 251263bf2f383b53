/**
 * A fuzz client whose requests go out in slots of the run's scheduler (specs/run/scheduler.ts): paced to the
 * target's declared limit, and a rate-limited answer is waited out and the case re-sent, so the fuzz
 * engine's judges only see answers that are not rate limiting. When the run's budget cannot afford a case,
 * `send` rejects with RunBudgetExhausted and the engine stops the rule there (specs/fuzz/engine/property.ts).
 */
import type { Scheduler } from '../../run/scheduler.ts';
import type { Client, Outcome } from './types.ts';

export function scheduledClient(client: Client, scheduler: Scheduler): Client {
  const head = (o: Outcome) => (o.kind === 'response' ? o : undefined);
  return {
    name: client.name,
    canSend: (request) => client.canSend(request),
    send: (request) => {
      const bucket = scheduler.bucketOf(new URL(request.url).pathname, request.authorization);
      return scheduler.run(bucket, () => client.send(request), head);
    },
  };
}
