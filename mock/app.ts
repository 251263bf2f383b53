/**
 * Builds the mock's request handler from a configuration, without listening (json-server v1's `createApp`
 * habit): mock/server.ts listens, mock/cli.ts parses flags, tests call either.
 *
 * The one place that lists the pipeline's stages, in the order of checks (docs/design.md "Order of checks").
 * Each feature folder's builder turns its settings into what its stage needs; the stages live in
 * mock/pipeline/, one file each; a stage nothing configured is left out, so a request pays for nothing it
 * does not use. Anything thrown anywhere becomes a 500 problem+json without a stack; the process never dies
 * of it. Requests under /__gatecheck/ never enter the pipeline: they are the control API's (mock/control/).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Access, buildAccess } from './access/build.ts';
import { resolveSwitch } from './access/exposure.ts';
import { DEFAULT_RATE_LIMIT, mergeRateLimit } from './access/rate-limit-settings.ts';
import { buildAuthenticator } from './auth/build.ts';
import { createClock, type MockClock } from './clock.ts';
import type { MockConfig } from './config.ts';
import { buildControl, type Control, controlEnabled } from './control/build.ts';
import { openDefects } from './defects/index.ts';
import { buildFaults, type Faults } from './faults/build.ts';
import { EXPECTATION_FAILED, expectationUnmet } from './http/expect.ts';
import { hostProblem } from './http/host.ts';
import { INTERNAL_ERROR } from './http/problem.ts';
import { type Reply, send } from './http/reply.ts';
import { buildOAuth } from './oauth/build.ts';
import { TOKEN_PATH } from './oauth/endpoint.ts';
import { buildOpenApi } from './openapi/build.ts';
import { authorizationStage } from './pipeline/authorization.ts';
import { blockListsStage } from './pipeline/block-lists.ts';
import { compose, type Pipeline } from './pipeline/compose.ts';
import { credentialsStage } from './pipeline/credentials.ts';
import { createExchange, type Exchange, type Stage } from './pipeline/exchange.ts';
import { DROPPED, faultStage } from './pipeline/faults.ts';
import { handlerStage } from './pipeline/handler.ts';
import { methodStage } from './pipeline/method.ts';
import { note } from './pipeline/notes.ts';
import { countFailedAttempts, rateLimitStage } from './pipeline/rate-limit.ts';
import { readTarget, routeStage } from './pipeline/route.ts';
import { openJsonServerEngine } from './resources/json-server.ts';
import type { ResourceEngine } from './resources/types.ts';
import { buildRouter } from './routing/build.ts';
import type { Router } from './routing/router.ts';
import type { StandIn } from './standin/build.ts';

export interface MockApp {
  /** The node:http request listener. Never throws, never rejects. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Waits for pending data writes (persistence file); the engine is not closed when it was injected. */
  close(): Promise<void>;
  readonly config: MockConfig;
  /** The compiled policy (for the CLI's route list, and later the control API). */
  readonly router: Router;
  /** The mock's clock: `config.clock` shifted by the configured offset and the control API. */
  readonly clock: MockClock;
  /** The control API, when on: its bearer token (configured, or generated at start-up). */
  readonly control: { readonly token: string } | undefined;
  /** The document the mock stands in for (`config.openapi`), when it does. */
  readonly standIn: StandIn | undefined;
}

/** An endpoint beside the pipeline (token endpoint, JWKS, the mock's document): public, answered first. */
interface Beside {
  owns(url: string | undefined): string | undefined;
  handle(exchange: Exchange): Reply | Promise<Reply>;
}

export interface AppOptions {
  /**
   * The address the server listens on; it decides the `loopback` defaults of the control API and the fault
   * header (on for a loopback address). Undefined (an app built without a listener): both off.
   */
  readonly host?: string;
}

/** Refused at start-up with one line (ConfigError): a bad policy, data file or auth material. */
export async function createApp(settings: MockConfig, options: AppOptions = {}): Promise<MockApp> {
  // Defect modes (mock/defects, docs/defects.md): resolved once here. None on → undefined, and the pipeline
  // below is the conformant one with no defect code in it.
  const defects = openDefects(settings.defects);
  const chosen = defects === undefined ? settings : defects.settings(settings);
  // Standing in for a document (mock/standin): loaded only then, so the bundled interface starts without it.
  const standIn =
    chosen.openapi === undefined
      ? undefined
      : await (await import('./standin/build.ts')).buildStandIn({
          source: chosen.openapi,
          realm: chosen.realm,
          auth: chosen.auth,
          oauth: chosen.oauth,
          maxBodyBytes: chosen.maxBodyBytes,
          access: chosen.access,
          faultHeader: resolveSwitch(chosen.faults.header, options.host),
        });
  // The document's own limit (x-gatecheck-rate-limit) over the defaults; the flags and file still apply.
  // Its x-gatecheck-blocked clients join the block lists.
  const config =
    standIn === undefined
      ? chosen
      : {
          ...chosen,
          access: standIn.access,
          ...(standIn.rateLimit !== undefined
            ? { rateLimit: mergeRateLimit(chosen.rateLimit, standIn.rateLimit) }
            : // No limit the document does not state, unless the flags or the configuration ask (#70).
              !standIn.declaresLimit && chosen.rateLimit === DEFAULT_RATE_LIMIT
              ? { rateLimit: { ...chosen.rateLimit, enabled: false } }
              : {}),
        };
  const data: ResourceEngine =
    config.engine ??
    (await openJsonServerEngine({ seedPath: config.dataPath, persistPath: config.persistPath }));
  const engine = defects === undefined ? data : defects.engine(data);
  const router = standIn?.router ?? buildRouter(config, engine);
  const conformant = config.authenticator ?? (await buildAuthenticator(config.auth));
  const authenticator =
    defects === undefined ? conformant : await defects.authenticator(conformant, router, config);
  const clock = createClock(config.clock, config.clockOffsetSeconds * 1000);
  // With the control API on, limits and faults may be switched on at run time: their stages stay.
  const switchable = controlEnabled(config.control, options.host);
  const access = buildAccess(
    {
      access: config.access,
      rateLimit: config.rateLimit,
      store: config.rateLimitStore,
      storeSettings: config.store,
      switchable,
    },
    router,
  );
  await access.ready;
  const [oauth, openapi]: readonly Beside[] =
    standIn === undefined
      ? [
          await buildOAuth({
            oauth: config.oauth,
            auth: config.auth,
            realm: config.realm,
            maxBodyBytes: config.maxBodyBytes,
          }),
          await buildOpenApi(config, TOKEN_PATH, resolveSwitch(config.faults.header, options.host)),
        ]
      : standIn.beside;
  const faults = buildFaults(
    config.faults,
    resolveSwitch(config.faults.header, options.host),
    router,
    switchable,
  );
  const control = buildControl(config.control, switchable, {
    clock,
    limiter: access.limiter,
    initialLimits: config.rateLimit,
    faults: faults.injector,
    resetData:
      standIn !== undefined
        ? () => standIn.reset()
        : engine.reset === undefined
          ? undefined
          : () => (engine.reset as () => Promise<void>)(),
    onError: config.onError,
    address: access.address,
  });

  const handler = standIn?.handler ?? handlerStage(engine, config.maxBodyBytes);
  // A stand-in checks the document's schemes itself; defects that replace the authenticator reach its Bearer
  // check through the wrapped authenticator (mock/standin/verify.ts).
  const credentials =
    standIn === undefined
      ? credentialsStage(authenticator, config.realm)
      : authenticator === conformant
        ? standIn.credentials
        : standIn.credentialsWith(authenticator);
  const pipeline = orderOfChecks(config, credentials, router, access, faults, handler);
  const run =
    defects === undefined
      ? pipeline
      : defects.pipeline(pipeline, { authenticator, router, serve: compose([handler]), engine }, config);
  return {
    config,
    router,
    clock,
    control: control.token === undefined ? undefined : { token: control.token },
    standIn,
    handle: requestListener(
      run,
      { oauth: oauth as Beside, openapi: openapi as Beside },
      control,
      clock,
      config.onError,
      config.server.strictHost,
    ),
    async close() {
      await access.close();
      if (config.engine === undefined) await engine.close();
    },
  };
}

/** The stages in the order of checks; the first that answers decides (docs/design.md "Order of checks"). */
function orderOfChecks(
  config: MockConfig,
  credentials: Stage,
  router: Router,
  access: Access,
  faults: Faults,
  handler: Stage,
): Pipeline {
  const { address, limiter, limiting } = access;
  return compose([
    // 1. route → 404
    routeStage(router),
    // 2. method → 405 with Allow (OPTIONS → 204)
    methodStage(),
    // 3. block lists, closed routes, bans → 403
    ...when(access.blocking, () => blockListsStage({ ...access, limiter: limiting ? limiter : undefined })),
    // 4. credentials → 400/401; failed attempts count against the client address
    limiting ? countFailedAttempts(credentials, limiter, address) : credentials,
    // 5. rate limit → 429, then a 403 ban
    ...when(limiting, () => rateLimitStage(limiter, address)),
    // 6. authorization → 403
    authorizationStage(config.realm),
    // 7. injected faults → 500, latency, dropped connection
    ...when(faults.active, () => faultStage(faults.injector)),
    // 8. handler → 200/400/404/413
    handler,
  ]);
}

function when(present: boolean, stage: () => Stage): Stage[] {
  return present ? [stage()] : [];
}

/**
 * A request refused before any check, for every path of the interface: more than one Host line or a Host
 * outside its grammar (RFC 9112 §3.2, mock/http/host.ts), then an Expect this server cannot meet (RFC 9110
 * §10.1.1, mock/http/expect.ts). Undefined for every other request, which costs it no allocation.
 */
function framingRefusal(
  req: IncomingMessage,
  strictHost: boolean,
): { reply: Reply; outcome: 'host_invalid' | 'expectation_unmet'; reason: string } | undefined {
  const badHost = hostProblem(req, strictHost);
  if (badHost !== undefined)
    return {
      reply: badHost,
      outcome: 'host_invalid',
      reason: 'no single Host line of uri-host [":" port] (RFC 9112 §3.2)',
    };
  if (expectationUnmet(req))
    return {
      reply: EXPECTATION_FAILED,
      outcome: 'expectation_unmet',
      reason: 'an Expect other than 100-continue (RFC 9110 §10.1.1)',
    };
  return undefined;
}

/** The node:http listener around the pipeline: never throws, never rejects. */
function requestListener(
  run: Pipeline,
  beside: { readonly oauth: Beside; readonly openapi: Beside },
  control: Control,
  clock: MockClock,
  onError: (error: unknown) => void,
  strictHost: boolean,
): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (error: unknown): Reply => {
    try {
      onError(error);
    } catch {
      // A failing error reporter must not turn a 500 into a crash.
    }
    return INTERNAL_ERROR;
  };
  const write = (res: ServerResponse, reply: Reply, head: boolean, exchange: Exchange | undefined): void => {
    if (exchange !== undefined) control.record(exchange, reply);
    // A dropped-connection fault: the socket is gone, there is nothing to write.
    if (reply === DROPPED) {
      res.destroy();
      return;
    }
    try {
      // The rate-limit fields go on every answer of a limited route; the reply's own fields win over them.
      send(res, reply, head, exchange?.extraHeaders);
    } catch (error) {
      fail(error);
      res.destroy();
    }
  };
  // An async function rather than `.then` callbacks: no closures made per request. Never rejects.
  const writeLater = async (
    pending: Promise<Reply>,
    res: ServerResponse,
    head: boolean,
    exchange: Exchange | undefined,
  ): Promise<void> => {
    let reply: Reply;
    try {
      reply = await pending;
    } catch (error) {
      reply = fail(error);
    }
    write(res, reply, head, exchange);
  };
  return (req, res) => {
    const head = req.method === 'HEAD';
    let out: Reply | Promise<Reply>;
    let exchange: Exchange | undefined;
    try {
      if (control.intercept(req, res)) return;
      exchange = createExchange(req, clock.now());
      const refused = framingRefusal(req, strictHost);
      // The token endpoint and JWKS hand out credentials, so they stand beside the policy (mock/oauth); so
      // does the mock's description of itself (mock/openapi), public like them.
      const oauthPath = beside.oauth.owns(req.url);
      const openapiPath = beside.openapi.owns(req.url);
      if (refused !== undefined) {
        // The journal names the path the request asked for.
        readTarget(exchange);
        note(exchange, refused.outcome, refused.reason);
        out = refused.reply;
      } else if (oauthPath !== undefined) {
        exchange.path = oauthPath;
        out = beside.oauth.handle(exchange);
      } else if (openapiPath !== undefined) {
        exchange.path = openapiPath;
        out = beside.openapi.handle(exchange);
      } else out = run(exchange);
    } catch (error) {
      out = fail(error);
    }
    if (out instanceof Promise) void writeLater(out, res, head, exchange);
    else write(res, out, head, exchange);
  };
}
