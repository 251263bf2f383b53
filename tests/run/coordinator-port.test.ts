/**
 * The run's scheduler reached over loopback HTTP (specs/run/coordinator-server.ts, specs/run/port.ts), as every
 * Playwright worker reaches it, answers as it does in one process: an argument the caller leaves out travels as
 * JSON's null and must arrive left out (a limited answer stating no rate once slowed a counter to 0.5 requests/s
 * over HTTP, where in one process it went at half the rate it had reached).
 */
import { expect, test } from '@playwright/test';
import { RunCoordinator } from '../../specs/run/coordinator.ts';
import { startCoordinatorServer } from '../../specs/run/coordinator-server.ts';
import { httpPort, inProcessPort, type SchedulerPort } from '../../specs/run/port.ts';
import { encodeScope } from '../../specs/run/scopes.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const req = (route: string, marks: { unrouted?: true } = {}) =>
  encodeScope({ counted: true, route, identity: '', credential: '', ...marks });

/** One sequence of a worker's calls: 320 requests at once, a limited answer stating no rate, then the pace. */
async function sequence(port: SchedulerPort): Promise<unknown[]> {
  const seen: unknown[] = [];
  await port.register('t', { maxRequests: 100_000, maxSeconds: 3600 });
  for (let i = 0; i < 20; i++) {
    const answer = await port.lease('t', req('/a'), 16, 'w');
    if (!('at' in answer)) throw new Error(`expected slots, got ${JSON.stringify(answer)}`);
    await port.sent(
      't',
      answer.at.map((at) => [req('/a'), at] as const),
    );
  }
  // The scheduler's own call: the rate the answer declares is undefined when it declares none.
  seen.push(await port.limited('t', { kind: 'limited', waitMs: 1000, reason: '429' }, req('/a'), undefined));
  seen.push(await port.paceFor('t', req('/a')));
  // An answer stating the requests left and no limit, to a request the run took for one answered before the limit.
  await port.counted('t', req('/nowhere', { unrouted: true }), undefined);
  seen.push(await port.politeness());
  return seen;
}

test('the scheduler over HTTP answers as in one process: an argument left out arrives left out, not as null', async () => {
  const inProcess = await sequence(inProcessPort(new RunCoordinator(() => NOW)));
  // 320 requests in the run's first instant, limited: half the rate reached over its first second, not the
  // floor of 0.5 requests/s.
  expect(inProcess[1]).toBeCloseTo(320 / 1 / 2);
  const server = await startCoordinatorServer(new RunCoordinator(() => NOW));
  const port = httpPort(server.address);
  try {
    expect(await sequence(port)).toEqual(inProcess);
  } finally {
    port.close();
    await server.close();
  }
});
