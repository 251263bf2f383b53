/**
 * The control API under `/__gatecheck/` (a reserved prefix, never routed to resources), for tests and
 * developers driving the mock: reset it, inject faults, change limits, move the clock, read the journal.
 * Every call needs `Authorization: Bearer <control token>` (401 without it); answers are JSON, errors
 * problem+json. Off by default when the mock listens on a non-loopback address (then the prefix is a 404).
 *
 *   GET    /__gatecheck                 what is here, and the current state in brief
 *   POST   /__gatecheck/reset           data, limits, counters, bans, faults, journal, clock → as at start-up
 *   GET    /__gatecheck/journal         ?limit=<n>&status=<code>&outcome=<code>; DELETE clears it
 *   GET    /__gatecheck/faults          PUT {"rules":[…]} replaces the rules; DELETE removes them
 *   GET    /__gatecheck/limits          PUT {…rateLimit section…} merges over the current settings
 *   GET    /__gatecheck/clock           POST {"advanceSeconds"|"advanceMs"|"set"|"freeze"}; DELETE resets it
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimiter, RateLimiterStatus } from '../access/rate-limit.ts';
import { mergeRateLimit, type RateLimitFile, type RateLimitSettings } from '../access/rate-limit-settings.ts';
import type { MockClock } from '../clock.ts';
import type { FaultInjector } from '../faults/injector.ts';
import type { FaultRule } from '../faults/settings.ts';
import { readJsonObject } from '../http/body.ts';
import { problem } from '../http/problem.ts';
import { jsonReply, type Reply, send } from '../http/reply.ts';
import type { Journal, JournalQuery } from './journal.ts';
import { CONTROL_PREFIX } from './settings.ts';
import { tokenChecker } from './token.ts';
import { checkSection } from './validate.ts';

export interface ControlTargets {
  readonly token: string;
  readonly clock: MockClock;
  readonly limiter: RateLimiter;
  /** The limits at start-up, restored by reset. */
  readonly initialLimits: RateLimitSettings;
  readonly faults: FaultInjector;
  readonly journal: Journal;
  /** Puts the data back to the seed; undefined when the engine cannot (an injected one). */
  readonly resetData: (() => Promise<void>) | undefined;
  /** Told about unexpected errors (they are answered 500). */
  readonly onError: (error: unknown) => void;
}

export type ControlHandler = (req: IncomingMessage, res: ServerResponse, path: string, query: string) => void;

const MAX_BODY = 64 * 1024;
const REALM = 'gatecheck-control';

const UNAUTHENTICATED = problem(
  'authentication-required',
  'The control API needs its token: Authorization: Bearer <control token> (printed when the mock starts).',
  { 'www-authenticate': `Bearer realm="${REALM}"` },
);
const WRONG_TOKEN = problem('invalid-credentials', 'This is not the control token.', {
  'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"`,
});
const NO_SUCH = problem('not-found', `No control endpoint at this path; see GET ${CONTROL_PREFIX}.`);

/** Path under the prefix → methods it answers. */
const ENDPOINTS: Readonly<Record<string, readonly string[]>> = {
  '': ['GET'],
  '/reset': ['POST'],
  '/journal': ['GET', 'DELETE'],
  '/faults': ['GET', 'PUT', 'DELETE'],
  '/limits': ['GET', 'PUT'],
  '/clock': ['GET', 'POST', 'DELETE'],
};

export function createControlApi(targets: ControlTargets): ControlHandler {
  const check = tokenChecker(targets.token);
  const { clock, limiter, faults, journal } = targets;

  const reset = async (): Promise<Reply> => {
    const done = ['limits', 'counters', 'bans', 'faults', 'journal', 'clock'];
    await limiter.configure(targets.initialLimits);
    faults.reset();
    journal.clear();
    clock.reset();
    if (targets.resetData !== undefined) {
      await targets.resetData();
      done.unshift('data');
    }
    return jsonReply(200, { reset: done, ...(targets.resetData ? {} : { notReset: ['data'] }) });
  };

  const route = async (req: IncomingMessage, method: string, sub: string, query: string): Promise<Reply> => {
    switch (`${method} ${sub}`) {
      case 'GET ':
        return jsonReply(200, {
          endpoints: Object.entries(ENDPOINTS).map(
            ([path, methods]) => `${methods.join('|')} ${CONTROL_PREFIX}${path}`,
          ),
          clock: clock.state(),
          rateLimit: rateLimitSummary(limiter.status(clock.now())),
          faults: faults.status(),
          journal: { capacity: journal.capacity, total: journal.total },
        });
      case 'POST /reset':
        return reset();
      case 'GET /journal': {
        const parsed = journalQuery(query);
        if (typeof parsed === 'string') return problem('bad-request', parsed);
        return jsonReply(200, {
          capacity: journal.capacity,
          total: journal.total,
          entries: journal.entries(parsed),
        });
      }
      case 'DELETE /journal':
        journal.clear();
        return jsonReply(200, { capacity: journal.capacity, total: 0, entries: [] });
      case 'GET /faults':
        return jsonReply(200, faults.status());
      case 'PUT /faults':
        return withBody(req, 'faults', (body) => {
          if (body.header !== undefined || body.seed !== undefined) {
            return 'only "rules" can change at run time (header and seed are start-up settings)';
          }
          faults.setRules((body.rules ?? []) as FaultRule[]);
          return jsonReply(200, faults.status());
        });
      case 'DELETE /faults':
        faults.clear();
        return jsonReply(200, faults.status());
      case 'GET /limits':
        return jsonReply(200, limiter.status(clock.now()));
      case 'PUT /limits':
        return withBody(req, 'rateLimit', async (body) => {
          await limiter.configure(mergeRateLimit(limiter.settings, body as RateLimitFile));
          return jsonReply(200, limiter.status(clock.now()));
        });
      case 'GET /clock':
        return jsonReply(200, clock.state());
      case 'POST /clock':
        return withBody(req, undefined, (body) => moveClock(clock, body));
      case 'DELETE /clock':
        clock.reset();
        return jsonReply(200, clock.state());
    }
    const allowed = ENDPOINTS[sub];
    if (allowed === undefined) return NO_SUCH;
    const allow = (allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed).join(', ');
    return problem('method-not-allowed', `${CONTROL_PREFIX}${sub} answers ${allow}.`, { allow });
  };

  return (req, res, path, query) => {
    const head = req.method === 'HEAD';
    const method = head ? 'GET' : (req.method ?? '');
    const write = (reply: Reply): void => {
      try {
        send(res, reply, head);
      } catch (error) {
        targets.onError(error);
        res.destroy();
      }
    };
    const verdict = check(req.headers.authorization);
    if (verdict !== 'ok') {
      write(verdict === 'missing' ? UNAUTHENTICATED : WRONG_TOKEN);
      return;
    }
    const sub = path.slice(CONTROL_PREFIX.length).replace(/\/$/, '');
    route(req, method, sub, query).then(write, (error: unknown) => {
      // A bad value the modules refuse (TypeError naming the field) is the caller's mistake: 400.
      if (error instanceof TypeError || error instanceof RangeError) {
        write(problem('bad-request', error.message));
        return;
      }
      targets.onError(error);
      write(problem('internal-error', 'The control API met an unexpected condition.'));
    });
  };
}

type BodyHandler = (body: Record<string, unknown>) => Reply | string | Promise<Reply | string>;

/** Reads and validates a JSON object body; `section` names the config schema section it must match. */
async function withBody(req: IncomingMessage, section: string | undefined, use: BodyHandler): Promise<Reply> {
  const body = await readJsonObject(req, MAX_BODY);
  if (!body.ok) return body.reply ?? problem('invalid-body', 'The request body was not received completely.');
  if (section !== undefined) {
    const wrong = checkSection(section, body.value);
    if (wrong !== undefined) return problem('invalid-body', `${section}.${wrong}`);
  }
  const out = await use(body.value);
  return typeof out === 'string' ? problem('invalid-body', out) : out;
}

function moveClock(clock: MockClock, body: Record<string, unknown>): Reply | string {
  const { advanceSeconds, advanceMs, set, freeze, ...rest } = body;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    return `unknown key ${unknown[0]} (expected advanceSeconds, advanceMs, set, freeze)`;
  const moves = [advanceSeconds, advanceMs, set].filter((v) => v !== undefined).length;
  if (moves > 1) return 'give one of advanceSeconds, advanceMs, set';
  if (moves === 0 && freeze === undefined)
    return 'give advanceSeconds, advanceMs, set (epoch ms or ISO 8601) or freeze';
  if (freeze !== undefined && typeof freeze !== 'boolean') return 'freeze: must be true or false';
  const move = clockMove(advanceSeconds, advanceMs, set);
  if (typeof move === 'string') return move;
  // Checked whole before anything changes; frozen before it moves, so `{ set, freeze: true }` reads exactly
  // `set`. Set first, the clock ran on for the instant between the two steps: two instances frozen at one
  // window's start read a millisecond or two apart, and a ban's Retry-After came out 16 s for 15.
  const thawed = !clock.state().frozen;
  if (freeze === true) clock.freeze(true);
  try {
    move?.(clock);
  } catch (error) {
    // A move past the clock's bound (RangeError, answered 400) leaves the clock running as it was.
    if (freeze === true && thawed) clock.freeze(false);
    throw error;
  }
  if (freeze === false) clock.freeze(false);
  return jsonReply(200, clock.state());
}

/** The one move a clock request asks for (checked, not yet made), undefined for none, or what is wrong. */
function clockMove(
  advanceSeconds: unknown,
  advanceMs: unknown,
  set: unknown,
): ((clock: MockClock) => void) | undefined | string {
  if (advanceSeconds !== undefined) {
    if (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds))
      return 'advanceSeconds: must be a number';
    return (clock) => clock.advance(advanceSeconds * 1000);
  }
  if (advanceMs !== undefined) {
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs)) return 'advanceMs: must be a number';
    return (clock) => clock.advance(advanceMs);
  }
  if (set !== undefined) {
    const at = typeof set === 'number' ? set : typeof set === 'string' ? Date.parse(set) : Number.NaN;
    if (!Number.isFinite(at)) return 'set: must be epoch milliseconds or an ISO 8601 date-time';
    return (clock) => clock.set(at);
  }
  return undefined;
}

function journalQuery(query: string): JournalQuery | string {
  const params = new URLSearchParams(query);
  const out: { limit?: number; status?: number; outcome?: string } = {};
  for (const [key, value] of params) {
    if (key === 'limit' || key === 'status') {
      if (!/^\d{1,6}$/.test(value)) return `${key}: expected a whole number, got "${value.slice(0, 20)}"`;
      out[key] = Number(value);
    } else if (key === 'outcome') out.outcome = value;
    else return `unknown query parameter ${key.slice(0, 40)} (expected limit, status, outcome)`;
  }
  return out;
}

/** The status page's rate-limit line: on or off, clients tracked, and where counts live (shared or not). */
function rateLimitSummary(status: RateLimiterStatus) {
  return {
    enabled: status.enabled,
    tracked: status.tracked,
    store: status.storeStatus ?? { name: status.store, shared: false },
  };
}
