/**
 * Builds the mock's request handler from a configuration, without listening (json-server v1's `createApp`
 * habit): mock/server.ts listens, mock/cli.ts parses flags, tests call either.
 *
 * The pipeline follows DESIGN.md "Order of checks", one stage per file under mock/pipeline/:
 *   route (404) → method (405, OPTIONS) → [block lists, 403] → credentials (400/401)
 *   → [rate limit, 429/403] → authorization (403) → handler (200/400/404/413)
 * and anything thrown anywhere becomes a 500 problem+json without a stack; the process never dies of it.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAuthenticator } from './auth/authenticator.ts';
import type { Authenticator } from './auth/types.ts';
import { ConfigError, FIXTURES_DIR, type MockConfig } from './config.ts';
import { INTERNAL_ERROR } from './http/problem.ts';
import { type Reply, send } from './http/reply.ts';
import { authorizationStage } from './pipeline/authorization.ts';
import { compose } from './pipeline/compose.ts';
import { credentialsStage } from './pipeline/credentials.ts';
import { createExchange } from './pipeline/exchange.ts';
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
}

/** Refused at start-up with one line (ConfigError): a bad policy, data file or auth material. */
export async function createApp(config: MockConfig): Promise<MockApp> {
  const policy = loadPolicy(config.policy, config.policyPath);
  const engine: ResourceEngine =
    config.engine ??
    (await openJsonServerEngine({ seedPath: config.dataPath, persistPath: config.persistPath }));
  const router = compileRouter(policy, engine, config.realm);
  const authenticator = config.authenticator ?? (await openAuthenticator(config));

  const run = compose([
    routeStage(router),
    methodStage(),
    // IP / geo block lists (403) slot in here.
    credentialsStage(authenticator, config.realm),
    // Rate limiting (429, then 403 ban) slots in here.
    authorizationStage(config.realm),
    handlerStage(engine, config.maxBodyBytes),
  ]);

  const { clock, onError } = config;
  const fail = (error: unknown): Reply => {
    try {
      onError(error);
    } catch {
      // A failing error reporter must not turn a 500 into a crash.
    }
    return INTERNAL_ERROR;
  };
  const write = (res: ServerResponse, reply: Reply, head: boolean): void => {
    try {
      send(res, reply, head);
    } catch (error) {
      fail(error);
      res.destroy();
    }
  };

  return {
    config,
    router,
    handle(req, res) {
      const head = req.method === 'HEAD';
      let out: Reply | Promise<Reply>;
      try {
        out = run(createExchange(req, clock()));
      } catch (error) {
        out = fail(error);
      }
      if (out instanceof Promise) {
        out.then(
          (reply) => write(res, reply, head),
          (error: unknown) => write(res, fail(error), head),
        );
      } else {
        write(res, out, head);
      }
    },
    async close() {
      if (config.engine === undefined) await engine.close();
    },
  };
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
