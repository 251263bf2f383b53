/**
 * `npm run mock` in a clone, `gatecheck-mock` where the package is installed — the mock as a developer's
 * stand-in for the real API. Prints the URL, one whole, ready-to-use credential per identity and scheme (from
 * fixtures/mock.profile.json), each identity's OAuth 2.0 client, and curl examples, the token endpoint's among
 * them; stops cleanly on SIGINT/SIGTERM. A bad flag or configuration → one line on stderr, exit 2.
 */

import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dropOutputToClosedPipes } from '../shared/closed-pipe.ts';
import {
  PROTECTION_OPTIONS,
  PROTECTION_USAGE,
  type ProtectionFlags,
  protectionBanner,
  protectionOverrides,
} from './cli/control-flags.ts';
import {
  DEFECT_OPTIONS,
  DEFECT_USAGE,
  type DefectFlags,
  defectBanner,
  defectListing,
  defectOverrides,
} from './cli/defect-flags.ts';
import { ConfigError, FIXTURES_DIR } from './config.ts';
import { JWKS_PATH, TOKEN_PATH } from './oauth/endpoint.ts';
import { loadPolicy } from './routing/policy.ts';
import { type RunningMock, startMock, type TlsOption } from './server.ts';

/**
 * How the user started the mock, for the usage line: `gatecheck-mock` (the package's bin, docs/package.md) or
 * `npm run mock --` (a clone's script, which runs this file directly).
 */
const INVOKED_AS = /gatecheck-mock(\.js)?$/.test(process.argv[1] ?? '')
  ? 'gatecheck-mock'
  : 'npm run mock --';

const USAGE = `Usage: ${INVOKED_AS} [options]

The gatecheck mock: json-server data behind the Authorization policy of the protected interface.

Options:
  -p, --port <n>       Port to listen on, 0 for any free port (default 3000)
      --host <addr>    Address to bind (default 127.0.0.1; 0.0.0.0 exposes it to the network)
  -c, --config <file>  JSON configuration (schema: fixtures/schemas/mock-config.schema.json)
  -d, --data <file>    Keep state in this file (created from the seed if absent) instead of in memory
      --tls            Serve HTTPS with a certificate generated at start; prints its CA file's path
      --tls-cert <file> --tls-key <file>
                       Serve HTTPS with this certificate and key (PEM)
      --token-lifetime <s>
                       expires_in of tokens from POST /oauth/token, in seconds (default 3600)
  -h, --help           Show this help
${PROTECTION_USAGE}
${DEFECT_USAGE}

Docs: docs/mock.md`;

const PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.profile.json');
/** The same identities obtaining Bearer tokens from the token endpoint: it holds the OAuth clients' secrets. */
const OAUTH_PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.oauth.profile.json');

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
      ...(tls === undefined ? {} : { tls }),
      ...(lifetime === undefined ? {} : { oauth: { tokenLifetimeSeconds: Number(lifetime) } }),
    });
  } catch (error) {
    if (error instanceof ConfigError) return fail(2, error.message);
    return fail(1, error instanceof Error ? error.message : String(error));
  }

  process.stdout.write(banner(mock));

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

function parsePort(raw: string): number | undefined {
  if (!/^\d{1,5}$/.test(raw)) return undefined;
  const port = Number(raw);
  return port <= 65535 ? port : undefined;
}

function fail(code: number, line: string): void {
  process.stderr.write(`gatecheck mock: ${line}\n`);
  process.exitCode = code;
}

// -------------------------------------------------------------------------------------------------------------
// What the developer sees.

interface ProfileIdentity {
  bearer?: string;
  token?: { oauth2?: { clientId: string; clientSecret: string } };
  basic?: { username: string; password: string };
  apikey?: string;
}

function banner(mock: RunningMock): string {
  const { url, config } = mock;
  const lines: string[] = [`gatecheck mock listening on ${url}`, ''];
  const shown = (p: string): string => relative(process.cwd(), p) || p;
  lines.push(
    `  data    ${config.persistPath ? `${shown(config.persistPath)} (persisted)` : `in memory, seeded from ${shown(config.dataPath)}`}`,
    `  policy  ${config.policy ? 'inline (from --config)' : shown(config.policyPath)}`,
    ...protectionBanner(mock),
    ...defectBanner(config.defects),
    '',
    'Routes:',
  );
  for (const route of routesOf(mock)) lines.push(`  ${route}`);

  const identities = readIdentities(PROFILE_PATH);
  const clients = readIdentities(OAUTH_PROFILE_PATH);
  const curl = mock.caPath === undefined ? 'curl' : `curl --cacert ${mock.caPath}`;
  if (mock.caPath !== undefined)
    lines.push('', `TLS: certificate generated at start; trust it with ${mock.caPath}`);
  lines.push(
    '',
    `Credentials (also in ${shown(PROFILE_PATH)} and ${shown(OAUTH_PROFILE_PATH)}, "identities"):`,
  );
  if (identities === undefined) {
    lines.push('  none found: generate the fixtures with `npm run fixtures`');
  } else {
    for (const [name, identity] of Object.entries(identities)) {
      lines.push(`  ${name}${identity.basic ? ` (${identity.basic.username})` : ''}`);
      // Whole values, ready to paste: a shortened token cannot be used.
      if (identity.bearer) lines.push(`    Authorization: Bearer ${identity.bearer}`);
      if (identity.basic) {
        const { username, password } = identity.basic;
        lines.push(
          `    Authorization: Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}    (${username}:${password})`,
        );
      }
      if (identity.apikey) lines.push(`    Authorization: Apikey ${identity.apikey}`);
      const oauth = clients?.[name]?.token?.oauth2;
      if (oauth)
        lines.push(`    OAuth 2.0 client  client_id=${oauth.clientId}  client_secret=${oauth.clientSecret}`);
    }
  }

  const admin = identities?.admin;
  const user = identities?.user;
  const adminClient = clients?.admin?.token?.oauth2;
  lines.push('', 'Try:');
  if (user?.basic) {
    lines.push(`  ${curl} -i -u '${user.basic.username}:${user.basic.password}' ${url}/protected`);
  } else {
    lines.push(`  ${curl} -i ${url}/users`);
  }
  if (adminClient) {
    // RFC 6749 §4.4.2: a client-credentials token request, the client authenticated with Basic (§2.3.1).
    lines.push(
      `  ${curl} -s -u '${adminClient.clientId}:${adminClient.clientSecret}' -d grant_type=client_credentials ${url}${TOKEN_PATH}`,
      `  ${curl} -i -H "Authorization: Bearer $(${curl} -s -u '${adminClient.clientId}:${adminClient.clientSecret}' -d grant_type=client_credentials ${url}${TOKEN_PATH} | node -p 'JSON.parse(require("fs").readFileSync(0)).access_token')" ${url}/admin`,
      `  ${curl} -s ${url}${JWKS_PATH}    # the keys to verify its tokens with`,
    );
  } else if (admin?.bearer) {
    lines.push(`  ${curl} -i -H "Authorization: Bearer ${admin.bearer}" ${url}/admin`);
  } else {
    lines.push(`  ${curl} -i ${url}/admin    # 401 with a Bearer challenge`);
  }
  lines.push('', 'Ctrl-C stops it.', '');
  return lines.join('\n');
}

/** One line per route and method, from the policy the mock validated at start-up. */
function routesOf(mock: RunningMock): string[] {
  const policy = mock.config.policy ?? loadPolicy(undefined, mock.config.policyPath);
  const out: string[] = [];
  for (const route of policy.routes) {
    for (const [method, access] of Object.entries(route.methods)) {
      const rule =
        access === 'public' || access === 'closed'
          ? access
          : [
              access.schemes.join(' | '),
              access.roles ? `role ${access.roles.join(' or ')}` : '',
              access.scopes ? `scope ${access.scopes.join(' ')}` : '',
            ]
              .filter(Boolean)
              .join(', ');
      out.push(`${method.padEnd(7)}${route.path.padEnd(14)}${rule}`);
    }
  }
  return out;
}

function readIdentities(path: string): Record<string, ProfileIdentity> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const profile = JSON.parse(readFileSync(path, 'utf8')) as {
      identities?: Record<string, ProfileIdentity>;
    };
    return profile.identities;
  } catch {
    return undefined;
  }
}

dropOutputToClosedPipes();
await main(process.argv.slice(2));
