/**
 * Builds the mock's request handler from a configuration, without listening (json-server v1's `createApp`
 * habit): mock/server.ts listens, mock/cli.ts parses flags, tests call either.
 *
 * The pipeline follows DESIGN.md "Order of checks", one stage per file under mock/pipeline/ (the bracketed
 * ones under mock/access/ and mock/faults/, present only when configured; mock/control/wiring.ts builds them):
 *   route (404) → method (405, OPTIONS) → [block lists, 403] → credentials (400/401)
 *   → [rate limit, 429/403] → authorization (403) → [faults, 500] → handler (200/400/404/413)
 * and anything thrown anywhere becomes a 500 problem+json without a stack; the process never dies of it.
 * Requests under /__gatecheck/ never enter the pipeline: they are the control API's (mock/control/).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAuthenticator } from './auth/authenticator.ts';
import type { Authenticator } from './auth/types.ts';
import type { MockClock } from './clock.ts';
import { ConfigError, FIXTURES_DIR, type MockConfig } from './config.ts';
import { buildProtections } from './control/wiring.ts';
import { openDefects } from './defects/index.ts';
import { DROPPED } from './faults/fault-stage.ts';
import { INTERNAL_ERROR } from './http/problem.ts';
import { type Reply, send } from './http/reply.ts';
import { createOAuthEndpoints, type OAuthEndpoints } from './oauth/endpoint.ts';
import { authorizationStage } from './pipeline/authorization.ts';
import { compose } from './pipeline/compose.ts';
import { credentialsStage } from './pipeline/credentials.ts';
import { createExchange, type Exchange, type Stage } from './pipeline/exchange.ts';
import { handlerStage } from './pipeline/handler.ts';
import { methodStage } from './pipeline/method.ts';
import { routeStage } from './pipeline/route.ts';
import { openJsonServerEngine } from './resources/json-server.ts';
import type { ResourceEngine } from './resources/types.ts';
import { loadPolicy } from './routing/policy.ts';
import { compileRouter, type Router } from './routing/router.ts';

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
  // Defect modes (mock/defects, issue 7): resolved once here. None on → undefined, and the pipeline below is
  // the conformant one with no defect code in it.
  const defects = openDefects(settings.defects);
  const config = defects === undefined ? settings : defects.settings(settings);
  const policy = loadPolicy(config.policy, config.policyPath);
  const engine: ResourceEngine =
    config.engine ??
    (await openJsonServerEngine({ seedPath: config.dataPath, persistPath: config.persistPath }));
  const router = compileRouter(policy, engine, config.realm);
  const conformant = config.authenticator ?? (await openAuthenticator(config));
  const authenticator =
    defects === undefined ? conformant : await defects.authenticator(conformant, router, config);
  const guard = buildProtections(config, router, engine, options.host);
  const oauth = await openOAuth(config);
  const optional = (stage: Stage | undefined): Stage[] => (stage === undefined ? [] : [stage]);

  const pipeline = compose([
    routeStage(router),
    methodStage(),
    ...optional(guard.accessStage),
    guard.credentials(credentialsStage(authenticator, config.realm)),
    ...optional(guard.rateLimitStage),
    authorizationStage(config.realm),
    ...optional(guard.faultStage),
    handlerStage(engine, config.maxBodyBytes),
  ]);
  const run = defects === undefined ? pipeline : defects.pipeline(pipeline, authenticator, config);

  const { clock } = guard;
  const { onError } = config;
  const fail = (error: unknown): Reply => {
    try {
      onError(error);
    } catch {
      // A failing error reporter must not turn a 500 into a crash.
    }
    return INTERNAL_ERROR;
  };
  const write = (res: ServerResponse, reply: Reply, head: boolean, exchange: Exchange | undefined): void => {
    if (exchange !== undefined) guard.record(exchange, reply);
    // A dropped-connection fault: the socket is gone, there is nothing to write.
    if (reply === DROPPED) {
      res.destroy();
      return;
    }
    try {
      // The rate-limit fields go on every answer of a limited route; the reply's own fields win over them.
      const extra = exchange?.extraHeaders;
      if (extra !== undefined)
        for (const name in extra) res.setHeader(name, extra[name] as string | string[]);
      send(res, reply, head);
    } catch (error) {
      fail(error);
      res.destroy();
    }
  };

  return {
    config,
    router,
    clock,
    control: guard.control === undefined ? undefined : { token: guard.control.token },
    handle(req, res) {
      const head = req.method === 'HEAD';
      let out: Reply | Promise<Reply>;
      let exchange: Exchange | undefined;
      try {
        if (guard.intercept(req, res)) return;
        exchange = createExchange(req, clock.now());
        // The token endpoint and JWKS hand out credentials, so they stand beside the policy (mock/oauth).
        const oauthPath = oauth.owns(req.url);
        if (oauthPath === undefined) out = run(exchange);
        else {
          exchange.path = oauthPath;
          out = oauth.handle(exchange);
        }
      } catch (error) {
        out = fail(error);
      }
      if (out instanceof Promise) {
        out.then(
          (reply) => write(res, reply, head, exchange),
          (error: unknown) => write(res, fail(error), head, exchange),
        );
      } else {
        write(res, out, head, exchange);
      }
    },
    async close() {
      if (config.engine === undefined) await engine.close();
    },
  };
}

async function openOAuth(config: MockConfig): Promise<OAuthEndpoints> {
  try {
    return await createOAuthEndpoints({
      settings: config.oauth,
      identitiesPath: config.auth.identitiesPath,
      jwksPath: config.auth.jwksPath,
      issuer: config.auth.issuer,
      audience: config.auth.audience,
      realm: config.realm,
      maxBodyBytes: config.maxBodyBytes,
    });
  } catch (error) {
    throw new ConfigError(`config.oauth: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function openAuthenticator(config: MockConfig): Promise<Authenticator> {
  try {
    return await createAuthenticator(config.auth);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint = reason.includes('ENOENT')
      ? ` (generate the fixtures in ${FIXTURES_DIR}: npm run fixtures)`
      : '';
    throw new ConfigError(`config.auth: ${reason}${hint}`);
  }
}
