/**
 * `npm run mock` in a clone, `gatecheck-mock` where the package is installed — the mock as a developer's
 * stand-in for the real API. Prints the URL, one whole, ready-to-use credential per identity and scheme (from
 * fixtures/mock.profile.json), each identity's OAuth 2.0 client, and curl examples, the token endpoint's among
 * them; stops cleanly on SIGINT/SIGTERM. A bad flag or configuration → one line on stderr, exit 2.
 */

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dropOutputToClosedPipes } from '../shared/closed-pipe.ts';
import { banner } from './cli/banner.ts';
import {
  PROTECTION_OPTIONS,
  PROTECTION_USAGE,
  type ProtectionFlags,
  protectionOverrides,
} from './cli/control-flags.ts';
import {
  DEFECT_OPTIONS,
  DEFECT_USAGE,
  type DefectFlags,
  defectListing,
  defectOverrides,
} from './cli/defect-flags.ts';
import { printEnv } from './cli/environment.ts';
import { standInBanner, standInPrintEnv } from './cli/stand-in.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type RunningMock, startMock, type TlsOption } from './server.ts';

/**
 * How the user started the mock, for the usage line: `gatecheck-mock` (the package's bin, docs/package.md) or
 * `npm run mock --` (a clone's script, which runs this file directly).
 */
const INVOKED_AS = /gatecheck-mock(\.js)?$/.test(process.argv[1] ?? '')
  ? 'gatecheck-mock'
  : 'npm run mock --';
/** The command that prints the credentials as variables, as the user would type it (npm's own lines silenced). */
const PRINT_ENV =
  INVOKED_AS === 'gatecheck-mock' ? 'npx gatecheck-mock --print-env' : 'npm run --silent mock -- --print-env';

const USAGE = `Usage: ${INVOKED_AS} [options]

The gatecheck mock: json-server data behind the Authorization policy of the protected interface.

Options:
  -p, --port <n>       Port to listen on, 0 for any free port (default 3000)
      --host <addr>    Address to bind (default 127.0.0.1; 0.0.0.0 exposes it to the network)
  -c, --config <file>  JSON configuration (schema: fixtures/schemas/mock-config.schema.json)
  -d, --data <file>    Keep state in this file (created from the seed if absent) instead of in memory
      --openapi <file|url>
                       Stand in for this OpenAPI document instead of the bundled interface: its paths,
                       security (credentials the mock issues), responses and examples (docs/mock.md
                       "Standing in for your own API")
      --tls            Serve HTTPS with a certificate generated at start; prints its CA file's path
      --tls-cert <file> --tls-key <file>
                       Serve HTTPS with this certificate and key (PEM)
      --token-lifetime <s>
                       expires_in of tokens from POST /oauth/token, in seconds (default 3600)
      --print-env      Print the mock's test credentials as \`export\` lines, under the environment variable
                       names \`gatecheck init\` writes (eval "$(${PRINT_ENV})"), and exit
  -h, --help           Show this help
${PROTECTION_USAGE}
${DEFECT_USAGE}

Docs: docs/mock.md`;

/** Exit codes: 0 stopped by a signal, 1 could not start (port taken…), 2 bad flag or configuration. */
async function main(argv: readonly string[]): Promise<void> {
  let values: {
    port?: string;
    host?: string;
    config?: string;
    data?: string;
    help?: boolean;
    tls?: boolean;
    'tls-cert'?: string;
    'tls-key'?: string;
    'token-lifetime'?: string;
    'print-env'?: boolean;
    openapi?: string;
  } & ProtectionFlags &
    DefectFlags;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        config: { type: 'string', short: 'c' },
        data: { type: 'string', short: 'd' },
        help: { type: 'boolean', short: 'h' },
        tls: { type: 'boolean' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'token-lifetime': { type: 'string' },
        'print-env': { type: 'boolean' },
        openapi: { type: 'string' },
        ...PROTECTION_OPTIONS,
        ...DEFECT_OPTIONS,
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    return fail(2, `${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values['list-defects'] === true) {
    process.stdout.write(defectListing(INVOKED_AS));
    return;
  }
  const openapi = values.openapi;
  if (openapi === '') return fail(2, '--openapi: expected an OpenAPI document, a file or an http(s) URL');
  if (values['print-env'] === true) {
    if (openapi === undefined) {
      process.stdout.write(printEnv(PRINT_ENV));
      return;
    }
    // The document's identities, without listening: the same credentials a mock started later issues.
    try {
      const config = loadConfig(values.config, { openapi: resolveDocument(openapi) });
      const { buildStandIn } = await import('./standin/build.ts');
      const standIn = await buildStandIn({ ...config, source: config.openapi as string, faultHeader: false });
      process.stdout.write(await standInPrintEnv(standIn, `${PRINT_ENV} --openapi ${openapi}`, Date.now()));
    } catch (error) {
      if (error instanceof ConfigError) return fail(2, error.message);
      throw error;
    }
    return;
  }
  const port = parsePort(values.port ?? '3000');
  if (port === undefined) return fail(2, `--port: expected an integer from 0 to 65535, got "${values.port}"`);
  const host = values.host ?? '127.0.0.1';
  if (host === '') return fail(2, '--host: expected an address, got ""');
  const protections = protectionOverrides(values);
  if (typeof protections === 'string') return fail(2, protections);
  const defects = defectOverrides(values, INVOKED_AS);
  if (typeof defects === 'string') return fail(2, defects);
  const tls = tlsOption(values);
  if (typeof tls === 'object' && 'error' in tls) return fail(2, tls.error);
  const lifetime = values['token-lifetime'];
  if (lifetime !== undefined && !/^[1-9]\d{0,7}$/.test(lifetime))
    return fail(2, `--token-lifetime: expected a whole number of seconds ≥ 1, got "${lifetime}"`);

  let mock: RunningMock;
  try {
    mock = await startMock({
      ...protections,
      ...defects,
      port,
      host,
      ...(values.config === undefined ? {} : { configPath: values.config }),
      ...(values.data === undefined ? {} : { persistPath: resolve(values.data) }),
      ...(openapi === undefined ? {} : { openapi: resolveDocument(openapi) }),
      ...(tls === undefined ? {} : { tls }),
      ...(lifetime === undefined ? {} : { oauth: { tokenLifetimeSeconds: Number(lifetime) } }),
    });
  } catch (error) {
    if (error instanceof ConfigError) return fail(2, error.message);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      return fail(
        1,
        `${(error as Error).message}: the port is taken; stop what holds it, or choose another with --port <n> (--port 0: any free port)`,
      );
    return fail(1, error instanceof Error ? error.message : String(error));
  }

  process.stdout.write(
    mock.standIn === undefined || openapi === undefined
      ? banner(mock, PRINT_ENV)
      : await standInBanner(mock, mock.standIn, openapi, `${PRINT_ENV} --openapi ${openapi}`),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`gatecheck mock: ${signal} again, exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    mock.close().then(
      () => {
        process.stdout.write(`gatecheck mock: stopped (${signal})\n`);
        process.exit(0);
      },
      (error: unknown) => fail(1, `could not stop cleanly: ${(error as Error).message}`),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function tlsOption(values: {
  tls?: boolean;
  'tls-cert'?: string;
  'tls-key'?: string;
}): TlsOption | { error: string } | undefined {
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if (values.tls === true && (cert !== undefined || key !== undefined))
    return { error: '--tls: generates a certificate; give either it or --tls-cert with --tls-key' };
  if ((cert === undefined) !== (key === undefined))
    return { error: '--tls-cert and --tls-key: give both PEM files' };
  if (cert !== undefined && key !== undefined) return { certPath: resolve(cert), keyPath: resolve(key) };
  return values.tls === true ? 'generate' : undefined;
}

/** A URL as it is; a file resolved against the working directory. */
function resolveDocument(source: string): string {
  return /^https?:\/\//i.test(source) ? source : resolve(source);
}

function parsePort(raw: string): number | undefined {
  if (!/^\d{1,5}$/.test(raw)) return undefined;
  const port = Number(raw);
  return port <= 65535 ? port : undefined;
}

function fail(code: number, line: string): void {
  process.stderr.write(`gatecheck mock: ${line}\n`);
  process.exitCode = code;
}

dropOutputToClosedPipes();
await main(process.argv.slice(2));
