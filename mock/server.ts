/**
 * Starts and stops the mock on a port (0 = any free one). Tests and the conformance suite run it in-process:
 *   const mock = await startMock({ port: 0 }); … await mock.close();
 */

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { ConfigError, loadConfig, type MockConfig, type MockConfigOverrides } from './config.ts';
import { onClientError, onConnect } from './http/client-error.ts';
import { handleExpect } from './http/expect.ts';
import type { StandIn } from './standin/build.ts';

/**
 * HTTPS (`--tls-cert/--tls-key`): PEM files; or `generate` (`--tls`): a certificate made at start-up whose CA
 * file path `RunningMock.caPath` gives.
 */
export type TlsOption = { readonly certPath: string; readonly keyPath: string } | 'generate';

export interface StartOptions extends MockConfigOverrides {
  /** Default 0: a free port chosen by the system; `url` tells which. */
  readonly port?: number;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** A JSON configuration file (fixtures/schemas/mock-config.schema.json); options override it. */
  readonly configPath?: string;
  /** Serve HTTPS (default plain HTTP). */
  readonly tls?: TlsOption;
}

export interface RunningMock {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Stops listening, drops open connections, waits for pending data writes. */
  close(): Promise<void>;
  readonly config: MockConfig;
  /**
   * The control API (`<url>/__gatecheck/`), when on — by default only on a loopback host: send
   * `Authorization: Bearer <token>`.
   */
  readonly control: { readonly url: string; readonly token: string } | undefined;
  /** With `tls: 'generate'`: the PEM file clients trust (`--ca-cert`, NODE_EXTRA_CA_CERTS, curl --cacert). */
  readonly caPath: string | undefined;
  /** With `openapi`: the document the mock stands in for — its identities and their credentials. */
  readonly standIn: StandIn | undefined;
}

/** Throws ConfigError (one line) for a bad configuration, policy or data file. */
export async function startMock(options: StartOptions = {}): Promise<RunningMock> {
  const { port = 0, host = '127.0.0.1', configPath, tls, ...overrides } = options;
  const config = loadConfig(configPath, overrides);
  const app = await createApp(config, { host });
  const limits = config.server;
  const certificate = await serverCertificate(tls, host);
  const serverOptions = {
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // The Host check (mock/http/host.ts) answers a missing Host with problem+json; Node's own writes a bare 400.
    requireHostHeader: false,
    noDelay: true,
  };
  // An https.Server is an http.Server underneath (same events, same close), so the rest is shared.
  const server: Server =
    certificate === undefined
      ? createServer(serverOptions, app.handle)
      : createTlsServer({ ...serverOptions, cert: certificate.cert, key: certificate.key }, app.handle);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  handleExpect(server, app.handle);
  server.on('clientError', onClientError);
  server.on('connect', onConnect);

  try {
    await listen(server, port, host);
  } catch (error) {
    await app.close();
    await certificate?.remove();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const url = `${certificate === undefined ? 'http' : 'https'}://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    // A stand-in runs with the document's limits and blocked clients merged in (mock/app.ts): report those.
    config: app.standIn === undefined ? config : app.config,
    caPath: certificate?.caPath,
    standIn: app.standIn,
    control: app.control === undefined ? undefined : { url: `${url}/__gatecheck`, token: app.control.token },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })
        .then(() => app.close())
        .then(() => certificate?.remove());
      return closing;
    },
  };
}

async function serverCertificate(
  tls: TlsOption | undefined,
  host: string,
): Promise<{ cert: string; key: string; caPath: string | undefined; remove(): Promise<void> } | undefined> {
  if (tls === undefined) return undefined;
  if (tls === 'generate') {
    // Imported when asked for: the certificate library costs ≈0.1 s of start-up a plain-HTTP mock never needs.
    const { generateServerCertificate } = await import('./tls/self-signed.ts');
    return generateServerCertificate([host]);
  }
  try {
    return {
      cert: readFileSync(tls.certPath, 'utf8'),
      key: readFileSync(tls.keyPath, 'utf8'),
      caPath: undefined,
      remove: async () => {},
    };
  } catch (error) {
    throw new ConfigError(
      `--tls-cert/--tls-key: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      // The system's code stays on the error (`code`), for a caller that explains it (mock/cli.ts).
      reject(
        Object.assign(new Error(`cannot listen on ${host}:${port}: ${error.code ?? error.message}`), {
          code: error.code,
          cause: error,
        }),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * The mock standing in for an API (issue #43, docs/mock.md "Standing in for your own API"): `createMock({
 * openapi: './openapi.yaml' })` serves that document's routes with its security, as `gatecheck-mock --openapi`
 * does; without `openapi`, the bundled interface. The same as `startMock`, under the name the stand-in's
 * documentation uses: it listens (port 0 by default) and resolves once it does.
 */
export function createMock(options: StartOptions = {}): Promise<RunningMock> {
  return startMock(options);
}
