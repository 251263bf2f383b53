/**
 * The CLI's words for a mock standing in for a document (`--openapi`, mock/standin/): the banner — what it
 * serves, the identities it issued and the grants each holds, their credentials under the names
 * `gatecheck init` writes for the same document (shared/credential-env.ts), a curl example — and
 * `--print-env`'s `export` lines.
 */
import type { CredentialVariable } from '../../shared/credential-env.ts';
import { shellWord } from '../../shared/shell.ts';
import type { RunningMock } from '../server.ts';
import { summaryLines } from '../standin/banner.ts';
import type { StandIn } from '../standin/build.ts';
import { protectionBanner } from './control-flags.ts';
import { defectBanner } from './defect-flags.ts';

export async function standInPrintEnv(standIn: StandIn, command: string, now: number): Promise<string> {
  const variables = await standIn.environment(now);
  return [
    `# The gatecheck mock's TEST-ONLY credentials for this document, under the names \`gatecheck init\` writes;`,
    `# use them as: eval "$(${command})"`,
    ...standIn.identities.map((id) => `# ${id.name}: ${id.grants.length ? id.grants.join(' ') : 'no scope'}`),
    ...variables.map(({ name, value }) => `export ${name}=${shellWord(value)}`),
    '',
  ].join('\n');
}

export async function standInBanner(
  mock: RunningMock,
  standIn: StandIn,
  source: string,
  printEnv: string,
): Promise<string> {
  const variables: CredentialVariable[] = await standIn.environment(Date.now());
  const lines = [
    `gatecheck mock listening on ${mock.url}, standing in for ${source}`,
    '',
    `  routes      ${standIn.router.routes.length} path templates, ${standIn.operations} operations`,
    `  document    ${mock.url}/openapi.json (servers pointed here)`,
    ...protectionBanner(mock),
    ...defectBanner(mock.config.defects),
    '',
    'Identities (test credentials, printed on purpose):',
    ...standIn.identities.map(
      (id) => `  ${id.name.padEnd(10)} ${id.grants.length ? id.grants.join(' ') : '(no scope)'}`,
    ),
    '',
    ...summaryLines(standIn.summary),
    '',
    `Credentials, under the names \`gatecheck init ${mock.url}/openapi.json\` writes (all: ${printEnv}):`,
    ...variables
      .filter((v) => /^GATECHECK_(ADMIN|USER)_/.test(v.name))
      .map((v) => `  ${v.name}=${shellWord(v.value)}`),
    '',
    `Then: npx gatecheck init ${mock.url}/openapi.json --writes && eval "$(${printEnv})" && npx gatecheck --profile gatecheck.profile.json`,
    '',
  ];
  return lines.join('\n');
}
