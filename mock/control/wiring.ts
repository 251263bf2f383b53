/**
 * Builds the mock's protections from its configuration — the clock, block lists, rate limiter, fault
 * injector, journal and control API — and hands mock/app.ts the stages to put in the pipeline. Only what is
 * configured (or may be switched on at run time through the control API) gets a stage, so a request pays for
 * nothing it does not use. Bad settings → ConfigError with one line naming the field.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { accessStage } from '../access/access-stage.ts';
import { compileCidrList } from '../access/cidr.ts';
import { type ClientAddress, createClientAddress } from '../access/client-address.ts';
import { createRateLimiter, MEMORY_STORE, type RateLimiter } from '../access/rate-limit.ts';
import { countFailedAttempts, rateLimitStage } from '../access/rate-limit-stage.ts';
import { createClock, type MockClock } from '../clock.ts';
import type { MockConfig } from '../config.ts';
import { DROPPED, faultStage } from '../faults/fault-stage.ts';
import { createFaultInjector } from '../faults/injector.ts';
import { NOT_FOUND } from '../http/problem.ts';
import { type Reply, send } from '../http/reply.ts';
import type { Exchange, Stage } from '../pipeline/exchange.ts';
import type { ResourceEngine } from '../resources/types.ts';
import type { Router } from '../routing/router.ts';
import { asConfigError } from '../util/config-error.ts';
import { type ControlHandler, createControlApi } from './control-api.ts';
import { resolveSwitch } from './exposure.ts';
import { Journal } from './journal.ts';
import { CONTROL_PREFIX } from './settings.ts';
import { generateControlToken } from './token.ts';

export interface Protections {
  readonly clock: MockClock;
  readonly limiter: RateLimiter;
  /** After method, before credentials; undefined when nothing is configured. */
  readonly accessStage: Stage | undefined;
  /** Wraps the credentials stage (failed attempts count against the client address). */
  readonly credentials: (stage: Stage) => Stage;
  /** After credentials; undefined when rate limiting is off for good. */
  readonly rateLimitStage: Stage | undefined;
  /** Just before the handler; undefined when no fault can be asked for. */
  readonly faultStage: Stage | undefined;
  /** The control API when on, with its token. */
  readonly control: { readonly token: string; readonly handle: ControlHandler } | undefined;
  /** Records one answered request in the journal (a no-op when the control API is off: nobody could read it). */
  readonly record: (exchange: Exchange, reply: Reply) => void;
  /**
   * Requests under `/__gatecheck` are the control API's, whether it is on (answered by it) or off (404): never
   * routed to resources. Returns true when it took the request.
   */
  readonly intercept: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** `host`: the address the server listens on, which decides the `loopback` defaults; undefined: they are off. */
export function buildProtections(
  config: MockConfig,
  router: Router,
  engine: ResourceEngine,
  host: string | undefined,
): Protections {
  const clock = createClock(config.clock, config.clockOffsetSeconds * 1000);
  const settings = config.access;
  const lists = asConfigError('config.access', () => ({
    trusted: compileCidrList(settings.trustedProxies, 'trustedProxies'),
    blocked: compileCidrList(settings.blockedIps, 'blockedIps'),
  }));
  const address: ClientAddress = asConfigError('config.access', () =>
    createClientAddress(lists.trusted, settings.proxyHeader),
  );
  const limiter = asConfigError('config', () =>
    createRateLimiter(config.rateLimit, router, config.rateLimitStore ?? MEMORY_STORE),
  );
  const controlOn = resolveSwitch(config.control.enabled, host);
  const faults = asConfigError('config', () =>
    createFaultInjector(config.faults, resolveSwitch(config.faults.header, host), router),
  );

  // With the control API on, limits may be switched on at run time: the stages stay, and check `enabled`.
  const limiting = config.rateLimit.enabled || controlOn;
  const blockedCountries =
    settings.blockedCountries.length === 0
      ? undefined
      : new Set(settings.blockedCountries.map((c) => c.toUpperCase()));
  const anyClosed = router.routes.some((route) => [...route.rules.values()].some((rule) => rule.closed));
  const blocking = anyClosed || lists.blocked.source.length > 0 || blockedCountries !== undefined || limiting;

  const journal = controlOn ? new Journal(config.control.journalSize) : undefined;
  const token = config.control.token ?? generateControlToken();
  const control = controlOn
    ? {
        token,
        handle: createControlApi({
          token,
          clock,
          limiter,
          initialLimits: config.rateLimit,
          faults,
          journal: journal as Journal,
          resetData: engine.reset === undefined ? undefined : () => (engine.reset as () => Promise<void>)(),
          onError: config.onError,
        }),
      }
    : undefined;

  return {
    clock,
    limiter,
    accessStage: blocking
      ? accessStage({
          address,
          blockedIps: lists.blocked.source.length > 0 ? lists.blocked : undefined,
          countryHeader: settings.countryHeader.toLowerCase(),
          blockedCountries,
          limiter: limiting ? limiter : undefined,
        })
      : undefined,
    credentials: (stage) => (limiting ? countFailedAttempts(stage, limiter, address) : stage),
    rateLimitStage: limiting ? rateLimitStage(limiter, address) : undefined,
    faultStage: faults.headerEnabled || !faults.idle || controlOn ? faultStage(faults) : undefined,
    control,
    record:
      journal === undefined
        ? () => undefined
        : (exchange, reply) => {
            const { req } = exchange;
            journal.record({
              at: exchange.now,
              method: exchange.method,
              path: exchange.path !== '' ? exchange.path : pathOf(req.url),
              status: reply === DROPPED ? 0 : reply.status,
              identity: exchange.identity?.id,
              client: exchange.clientKey ?? `ip:${exchange.client ?? address(req)}`,
              outcome: exchange.outcome,
              reason: exchange.outcomeReason,
            });
          },
    intercept(req, res) {
      const url = req.url ?? '';
      if (!url.startsWith(CONTROL_PREFIX)) return false;
      const next = url.charCodeAt(CONTROL_PREFIX.length);
      // `/__gatecheck`, `/__gatecheck/…`, `/__gatecheck?…`; `/__gatecheckers` is an ordinary path.
      if (!Number.isNaN(next) && next !== 47 /* / */ && next !== 63 /* ? */) return false;
      const q = url.indexOf('?');
      if (control === undefined) {
        send(res, NOT_FOUND, req.method === 'HEAD');
        return true;
      }
      control.handle(req, res, q === -1 ? url : url.slice(0, q), q === -1 ? '' : url.slice(q + 1));
      return true;
    },
  };
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
