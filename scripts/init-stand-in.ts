/**
 * A loopback stand-in that behaves as a published document says, and a conformance run against it with a
 * given profile — to count what a profile written by `gatecheck init` leaves unchecked (docs/package.md
 * "gatecheck init"; the closing note of issue 30 compares profiles of two versions of init).
 *
 *   tsx scripts/init-stand-in.ts <stand-in.json> <profile.json> [--report-dir DIR] [--base-path /api]
 *
 * `--base-path`: a path the base URL carries (a user told by the run that every endpoint answered 404 adds
 * the prefix the profile lost).
 *
 * The stand-in is the bundled mock, with a policy of the stand-in's own, behind the proxy of
 * stand-in-proxy.ts (the document's paths mapped to the mock's routes, a key taken with the document's word). Credentials come from fixtures/mock.profile.json, under the names init writes. Prints one line:
 * the MUST rules passed, failed and skipped, and the requests the proxy counted by route.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startMock } from '../mock/server.ts';
import { identityVariables } from '../shared/credential-env.ts';
import type { ConformanceReport } from '../specs/report/model.ts';
import { type StandInRoutes, startStandIn } from './stand-in-proxy.ts';

interface StandIn extends StandInRoutes {
  readonly document: string;
  /** The mock's policy (fixtures/schemas/policy.schema.json). */
  readonly policy: Record<string, unknown>;
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** The mock's credentials under the variable names init writes (shared/credential-env.ts, as print-env). */
async function credentials(): Promise<Record<string, string>> {
  const profile = JSON.parse(await readFile(path.join(ROOT, 'fixtures/mock.profile.json'), 'utf8')) as {
    identities: Record<string, unknown>;
  };
  return Object.fromEntries(
    Object.entries(profile.identities).flatMap(([name, id]) =>
      identityVariables(name, id).map((v) => [v.name, v.value]),
    ),
  );
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'report-dir': { type: 'string' }, 'base-path': { type: 'string' } },
  });
  const [standInFile, profileFile] = positionals;
  if (standInFile === undefined || profileFile === undefined)
    throw new Error('usage: tsx scripts/init-stand-in.ts <stand-in.json> <profile.json> [--report-dir DIR]');
  const standIn = JSON.parse(await readFile(standInFile, 'utf8')) as StandIn;
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-stand-in-'));
  const policyPath = path.join(dir, 'policy.json');
  await writeFile(policyPath, JSON.stringify(standIn.policy));
  const mock = await startMock({ port: 0, policyPath });
  const proxy = await startStandIn(standIn, mock.url);
  const base = `${proxy.url}${values['base-path'] ?? ''}`;
  const reportDir = path.resolve(values['report-dir'] ?? path.join(dir, 'reports'));
  try {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin/gatecheck.js'),
        '--base-url',
        base,
        '--profile',
        path.resolve(profileFile),
        '--report-dir',
        reportDir,
      ],
      { env: { ...process.env, ...(await credentials()) }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const [code] = (await once(child, 'exit')) as [number];
    const text = await readFile(path.join(reportDir, 'conformance.json'), 'utf8').catch(() => undefined);
    if (text === undefined) {
      process.stdout.write(
        `${standIn.document}: exit ${code}; no report — the run stopped before any rule\n`,
      );
      return;
    }
    const report = JSON.parse(text) as ConformanceReport;
    const must = report.rules.filter((r) => r.level === 'MUST');
    const count = (v: string) => must.filter((r) => r.verdict === v).length;
    const routeHits = [...proxy.hits].map(([k, n]) => `${k}: ${n}`).join('; ');
    process.stdout.write(
      `${standIn.document}: exit ${code}; MUST rules ${must.length}: ${count('pass')} pass, ${count('fail')} fail, ${count('skip')} skipped (${
        must
          .filter((r) => r.verdict === 'fail')
          .map((r) => r.id)
          .join(', ') || 'no failure'
      })\nrequests by route: ${routeHits}\n`,
    );
  } finally {
    await proxy.close();
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
