/**
 * `npm run mock` — the mock as a developer's stand-in for the real API. Prints the URL, one ready-to-use
 * credential per identity and scheme (from fixtures/mock.profile.json), and two curl examples; stops cleanly
 * on SIGINT/SIGTERM. A bad flag or configuration → one line on stderr, exit 2.
 */

import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
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
import { loadPolicy } from './routing/policy.ts';
import { type RunningMock, startMock } from './server.ts';

const USAGE = `Usage: npm run mock -- [options]

The gatecheck mock: json-server data behind the Authorization policy of the protected interface.

Options:
  -p, --port <n>       Port to listen on, 0 for any free port (default 3000)
      --host <addr>    Address to bind (default 127.0.0.1; 0.0.0.0 exposes it to the network)
  -c, --config <file>  JSON configuration (schema: fixtures/schemas/mock-config.schema.json)
  -d, --data <file>    Keep state in this file (created from the seed if absent) instead of in memory
  -h, --help           Show this help
${PROTECTION_USAGE}
${DEFECT_USAGE}

Docs: docs/mock.md`;

const PROFILE_PATH = resolve(FIXTURES_DIR, 'mock.profile.json');

/** Exit codes: 0 stopped by a signal, 1 could not start (port taken…), 2 bad flag or configuration. */
async function main(argv: readonly string[]): Promise<void> {
  let values: {
    port?: string;
    host?: string;
    config?: string;
    data?: string;
    help?: boolean;
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
    process.stdout.write(defectListing());
    return;
  }
  const port = parsePort(values.port ?? '3000');
  if (port === undefined) return fail(2, `--port: expected an integer from 0 to 65535, got "${values.port}"`);
  const host = values.host ?? '127.0.0.1';
  if (host === '') return fail(2, '--host: expected an address, got ""');
  const protections = protectionOverrides(values);
  if (typeof protections === 'string') return fail(2, protections);
  const defects = defectOverrides(values);
  if (typeof defects === 'string') return fail(2, defects);

  let mock: RunningMock;
  try {
    mock = await startMock({
      ...protections,
      ...defects,
      port,
      host,
      ...(values.config === undefined ? {} : { configPath: values.config }),
      ...(values.data === undefined ? {} : { persistPath: resolve(values.data) }),
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

  const identities = readIdentities();
  lines.push('', `Credentials (full copies in ${shown(PROFILE_PATH)}, "identities"):`);
  if (identities === undefined) {
    lines.push('  none found: generate the fixtures with `npm run fixtures`');
  } else {
    for (const [name, identity] of Object.entries(identities)) {
      lines.push(`  ${name}${identity.basic ? ` (${identity.basic.username})` : ''}`);
      if (identity.bearer) lines.push(`    Authorization: Bearer ${shorten(identity.bearer)}`);
      if (identity.basic)
        lines.push(`    Basic user:password  ${identity.basic.username}:${identity.basic.password}`);
      if (identity.apikey) lines.push(`    Authorization: Apikey ${identity.apikey}`);
    }
  }

  const admin = identities?.admin;
  const user = identities?.user;
  lines.push('', 'Try:');
  if (user?.basic) {
    lines.push(`  curl -i -u '${user.basic.username}:${user.basic.password}' ${url}/protected`);
  } else {
    lines.push(`  curl -i ${url}/users`);
  }
  if (admin?.bearer) {
    const token = `node -p "require('${PROFILE_PATH}').identities.admin.bearer"`;
    lines.push(`  curl -i -H "Authorization: Bearer $(${token})" ${url}/admin`);
  } else {
    lines.push(`  curl -i ${url}/admin    # 401 with a Bearer challenge`);
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

function readIdentities(): Record<string, ProfileIdentity> | undefined {
  if (!existsSync(PROFILE_PATH)) return undefined;
  try {
    const profile = JSON.parse(readFileSync(PROFILE_PATH, 'utf8')) as {
      identities?: Record<string, ProfileIdentity>;
    };
    return profile.identities;
  } catch {
    return undefined;
  }
}

/** A JWT is ~600 characters; the banner shows its start and end, the profile file holds the whole token. */
function shorten(token: string): string {
  return token.length <= 48 ? token : `${token.slice(0, 24)}…${token.slice(-12)}`;
}

await main(process.argv.slice(2));
