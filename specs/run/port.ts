/**
 * How a worker reaches the run's scheduler (specs/run/coordinator.ts): over loopback HTTP to the runner
 * process that hosts it, or directly when both live in one process (the project's own tests).
 */
import * as http from 'node:http';
import type { LeaseAnswer, LimitedAnswer, Politeness, RunCoordinator, TargetPolicy } from './coordinator.ts';
import type { LimitSignal } from './limited-answer.ts';

/** Set by global setup: `http://127.0.0.1:<port>/<per-run secret>`, the scheduler's address for workers. */
export const SCHEDULER_ENV = 'GATECHECK_SCHEDULER';

export interface SchedulerPort {
  register(target: string, policy: TargetPolicy): Promise<void>;
  lease(
    target: string,
    bucket: string,
    want: number,
    holder: string,
    provoking?: boolean,
  ): Promise<LeaseAnswer>;
  /**
   * A limited answer to a request of `bucket`: the rate its policy field declares (`declaredRate`, requests/s)
   * and the limit it states (`stated`, requests), where it gives them; when the request went out (`sentAt`,
   * epoch ms), where the caller knows it.
   */
  limited(
    target: string,
    signal: LimitSignal,
    bucket: string,
    declaredRate?: number,
    stated?: number,
    sentAt?: number,
  ): Promise<LimitedAnswer>;
  /**
   * An answer to a request of `bucket` stated the requests left: the target's limiter counted it — the one
   * whose limit the answer states (`limit`), where it states one.
   */
  counted(target: string, bucket: string, limit?: number): Promise<void>;
  /** Requests that went out: `[bucket, epoch ms]` each. */
  sent(target: string, entries: readonly (readonly [string, number])[]): Promise<void>;
  exclusive(
    target: string,
    holder: string,
  ): Promise<{ startAt: number } | { retryAt: number } | { notNeeded: true }>;
  release(target: string, holder: string, cooldownMs: number): Promise<void>;
  remainingMs(target: string): Promise<number>;
  fuzzShare(target: string, totalRules: number, parallel: number): Promise<number>;
  /** Undefined travels as null over HTTP. */
  paceFor(target: string, bucket: string): Promise<number | undefined | null>;
  politeness(): Promise<Politeness>;
}

/** The operations a port forwards, by name: the one list the server and the HTTP port share. */
export const OPERATIONS = [
  'register',
  'lease',
  'limited',
  'counted',
  'sent',
  'exclusive',
  'release',
  'remainingMs',
  'fuzzShare',
  'paceFor',
  'politeness',
] as const satisfies readonly (keyof SchedulerPort)[];

/** Calls the coordinator in this process. */
export function inProcessPort(coordinator: RunCoordinator): SchedulerPort {
  return {
    register: async (t, p) => coordinator.register(t, p),
    lease: async (t, b, w, h, p) => coordinator.lease(t, b, w, h, p),
    limited: async (t, s, b, r, q, at) => coordinator.limited(t, s, b, r, q, at),
    counted: async (t, b, l) => coordinator.counted(t, b, l),
    sent: async (t, e) => coordinator.sent(t, e),
    exclusive: async (t, h) => coordinator.exclusive(t, h),
    release: async (t, h, c) => coordinator.release(t, h, c),
    remainingMs: async (t) => coordinator.remainingMs(t),
    fuzzShare: async (t, n, p) => coordinator.fuzzShare(t, n, p),
    paceFor: async (t, b) => coordinator.paceFor(t, b),
    politeness: async () => coordinator.politeness(),
  };
}

/** Calls the coordinator of the runner process at `address` (SCHEDULER_ENV), one keep-alive connection. */
export function httpPort(address: string): SchedulerPort & { close(): void } {
  const url = new URL(address);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const call = (op: string, args: unknown[]): Promise<never> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(args);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}/${op}`,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          timeout: 10_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200)
              reject(new Error(`run scheduler: ${op} answered ${res.statusCode}: ${text}`));
            else resolve(JSON.parse(text) as never);
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`run scheduler: ${op} timed out`)));
      req.on('error', reject);
      req.end(body);
    });
  return {
    register: (...a) => call('register', a),
    lease: (...a) => call('lease', a),
    limited: (...a) => call('limited', a),
    counted: (...a) => call('counted', a),
    sent: (...a) => call('sent', a),
    exclusive: (...a) => call('exclusive', a),
    release: (...a) => call('release', a),
    remainingMs: (...a) => call('remainingMs', a),
    fuzzShare: (...a) => call('fuzzShare', a),
    paceFor: (...a) => call('paceFor', a),
    politeness: () => call('politeness', []),
    close: () => agent.destroy(),
  };
}
