/**
 * The run's token broker, hosted once per run in the process that starts the workers (the CLI, else
 * Playwright's global setup): it fetches each identity's token (specs/credentials/fetch-token.ts), keeps it
 * fresh (token-cache.ts) and hands it to the workers — separate processes — over a loopback HTTP channel
 * guarded by a random per-run secret. Workers ask through `tokenFor` (client.ts); the address and secret
 * travel in the environment (ENV.tokenBroker, ENV.tokenBrokerSecret), which workers inherit.
 *
 *   GET /token/<identity>  → 200 { token, refreshAt }   (refreshAt: epoch ms, or null for the whole run)
 *   GET /issued            → 200 { tokens: [...] }       every token fetched so far, for redaction
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENV } from '../../shared/env.ts';
import type { NodeTlsOptions } from '../lib/tls.ts';
import type { Profile, TokenSource } from '../profile/types.ts';
import { fetchToken } from './fetch-token.ts';
import { TokenCache } from './token-cache.ts';
import { TokenError } from './token-error.ts';

export const SECRET_HEADER = 'x-gatecheck-broker-secret';

export interface TokenBroker {
  /** The variables workers need to reach the broker. */
  readonly env: Readonly<Record<string, string>>;
  /** Fetches every identity's token once; throws the first TokenError (before any rule runs). */
  prime(): Promise<void>;
  issued(): string[];
  close(): Promise<void>;
}

export interface BrokerOptions {
  readonly profile: Profile;
  readonly baseUrl: string;
  readonly tls: NodeTlsOptions;
  readonly timeoutMs: number;
}

/** The identities whose Bearer token the profile says to obtain at run time. */
export function tokenSources(profile: Profile): [string, TokenSource][] {
  return Object.entries(profile.identities).flatMap(([name, identity]) =>
    identity?.token ? [[name, identity.token] as [string, TokenSource]] : [],
  );
}

export async function startTokenBroker(options: BrokerOptions): Promise<TokenBroker> {
  const sources = new Map(tokenSources(options.profile));
  const cache = new TokenCache((identity) =>
    fetchToken(sources.get(identity) as TokenSource, `/identities/${identity}/token`, options),
  );
  const secret = randomBytes(24).toString('base64url');
  const expected = Buffer.from(secret);

  const reply = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(text);
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const given = Buffer.from(String(req.headers[SECRET_HEADER] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      reply(res, 403, { error: 'forbidden' });
      return;
    }
    const url = req.url ?? '';
    if (url === '/issued') {
      reply(res, 200, { tokens: cache.issued() });
      return;
    }
    const identity = /^\/token\/([a-z]+)$/.exec(url)?.[1];
    if (identity === undefined || !sources.has(identity)) {
      reply(res, 404, { error: 'no such identity' });
      return;
    }
    cache.get(identity).then(
      (entry) => reply(res, 200, { token: entry.token, refreshAt: entry.refreshAt ?? null }),
      (error: unknown) =>
        reply(res, 502, {
          error: error instanceof TokenError ? error.message : 'token request failed',
          kind: error instanceof TokenError ? error.kind : 'unreachable',
        }),
    );
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only, any free port.
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The broker must not keep a finished run alive; the reporter may still ask it for `issued` at the end.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    env: { [ENV.tokenBroker]: `http://127.0.0.1:${port}`, [ENV.tokenBrokerSecret]: secret },
    async prime() {
      for (const identity of sources.keys()) await cache.get(identity);
    },
    issued: () => cache.issued(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A broker whose tokens are already fetched: every identity's once, before any rule runs. A TokenError (a
 * refused or unreachable token endpoint) is thrown with the broker closed.
 */
export async function startPrimedBroker(options: BrokerOptions): Promise<TokenBroker> {
  const broker = await startTokenBroker(options);
  try {
    await broker.prime();
  } catch (error) {
    await broker.close();
    throw error;
  }
  return broker;
}
