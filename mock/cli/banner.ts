/**
 * What the developer sees when the mock starts (mock/cli.ts): its URL, what it serves and under which
 * policy, the routes, one whole, ready-to-paste `Authorization` line per identity and scheme, the other
 * credentials labelled with the environment variables `gatecheck init` names them by (mock/cli/environment.ts),
 * and curl examples, the token endpoint's among them.
 */
import { relative } from 'node:path';
import { JWT_PRIVATE_JWK_VARIABLE } from '../../shared/credential-env.ts';
import { shellWord } from '../../shared/shell.ts';
import { JWKS_PATH, TOKEN_PATH } from '../oauth/endpoint.ts';
import { loadPolicy } from '../routing/policy.ts';
import type { RunningMock } from '../server.ts';
import { protectionBanner } from './control-flags.ts';
import { defectBanner } from './defect-flags.ts';
import {
  ISSUER_KEY_PATH,
  mockIdentities,
  mockVariables,
  OAUTH_PROFILE_PATH,
  PROFILE_PATH,
} from './environment.ts';

/** `printEnv` is the command that prints the variables (`npx gatecheck-mock --print-env`). */
export function banner(mock: RunningMock, printEnv: string): string {
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

  const identities = mockIdentities();
  const variables = new Map(mockVariables().map((v) => [v.name, v.value]));
  /** `NAME=value` for each variable present, as a shell would take it. */
  const assignments = (names: readonly string[]): string =>
    names
      .filter((name) => variables.has(name))
      .map((name) => `${name}=${shellWord(variables.get(name) as string)}`)
      .join(' ');
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
      const prefix = `GATECHECK_${name.toUpperCase()}_`;
      lines.push(`  ${name}${identity.basic ? ` (${identity.basic.username})` : ''}`);
      // Whole values, ready to paste, each line a header as it is sent: a shortened token cannot be used, and
      // an annotation on the same line would be pasted with it (a 400).
      if (identity.bearer) lines.push(`    Authorization: Bearer ${identity.bearer}`);
      if (identity.basic) {
        const { username, password } = identity.basic;
        lines.push(
          `    Authorization: Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
        );
      }
      if (identity.apikey) lines.push(`    Authorization: Apikey ${identity.apikey}`);
      if (identity.basic) lines.push(`    ${assignments([`${prefix}USERNAME`, `${prefix}PASSWORD`])}`);
      if (identity.token?.oauth2) {
        const client = ['CLIENT_ID', 'CLIENT_SECRET', 'OAUTH_USERNAME', 'OAUTH_PASSWORD'].map(
          (f) => prefix + f,
        );
        // A shell comment: the whole line still pastes into a shell.
        lines.push(`    ${assignments(client)}    # its OAuth 2.0 client`);
      }
    }
    lines.push(
      '',
      'As environment variables, under the names `gatecheck init` writes into a profile:',
      `  eval "$(${printEnv})"`,
      '  GATECHECK_<IDENTITY>_BEARER and _APIKEY: what follows "Bearer " and "Apikey " above',
      `  ${JWT_PRIVATE_JWK_VARIABLE}: the test issuer's private key, the JSON in ${ISSUER_KEY_PATH}`,
    );
  }

  const admin = identities?.admin;
  const user = identities?.user;
  const adminClient = identities?.admin?.token?.oauth2;
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
