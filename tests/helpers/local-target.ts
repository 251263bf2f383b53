/**
 * The checks' client (specs/wire/http.ts) against a server of a test's own, with a scheduler of its own: an
 * in-process coordinator, a budget no test reaches, no pace. Each call is independent of every other.
 */
import { Budget } from '../../specs/lib/budget.ts';
import { RunCoordinator } from '../../specs/run/coordinator.ts';
import { inProcessPort } from '../../specs/run/port.ts';
import { Scheduler } from '../../specs/run/scheduler.ts';
import { Target, type TargetOptions } from '../../specs/wire/http.ts';

export function localTarget(
  url: string,
  concurrency: number,
  refreshAuthorization?: TargetOptions['refreshAuthorization'],
): Target {
  const scheduler = new Scheduler(
    inProcessPort(new RunCoordinator()),
    url,
    { maxRequests: 100, maxSeconds: 60 },
    () => '',
    concurrency,
  );
  return new Target({
    baseUrl: url,
    budget: new Budget(concurrency),
    scheduler,
    timeoutMs: 5000,
    ...(refreshAuthorization === undefined ? {} : { refreshAuthorization }),
  });
}
