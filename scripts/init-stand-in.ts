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
 * The stand-in is the bundled mock, with a policy of the stand-in's own, behind a small proxy on a free
 * loopback port that maps the document's paths to the mock's routes (`routes`: [regex, replacement]) and,
 * for a key the document sends with its own word (`keyWord`, e.g. Okta's SSWS), takes that word and refuses
 * the mock's `Apikey` — so a profile that sends a key with the wrong word is refused, as the real target
 * would. Credentials come from fixtures/mock.profile.json, under the names init writes. Prints one line:
 * the MUST rules passed, failed and skipped, and the requests the proxy counted by route.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startMock } from '../mock/server.ts';
import type { ConformanceReport } from '../specs/report/model.ts';

interface StandIn {
  readonly document: string;
  /** The mock's policy (fixtures/schemas/policy.schema.json). */
  readonly policy: Record<string, unknown>;
  /** [pattern, replacement]: the first whose pattern matches the path (query kept) maps it to a mock route. */
  readonly routes: readonly (readonly [string, string])[];
  /** The word the document's key is sent with; the stand-in refuses `Apikey`. */
  readonly keyWord?: string;
}

const ROOT = path.resolve(import.meta.dirname, '..');

/** The mock's credentials under the variable names init writes (cli/init/credentials.ts). */
async function credentials(): Promise<Record<string, string>> {
  const profile = JSON.parse(await readFile(path.join(ROOT, 'fixtures/mock.profile.json'), 'utf8')) as {
    identities: Record<
      string,
      { bearer?: string; apikey?: string; basic?: { username: string; password: string } }
    >;
  };
  const env: Record<string, string> = {};
  for (const [name, id] of Object.entries(profile.identities)) {
    const prefix = `GATECHECK_${name.toUpperCase()}_`;
    if (id.bearer) env[`${prefix}BEARER`] = id.bearer;
    if (id.apikey) env[`${prefix}APIKEY`] = id.apikey;
    if (id.basic)
      Object.assign(env, {
        [`${prefix}USERNAME`]: id.basic.username,
        [`${prefix}PASSWORD`]: id.basic.password,
      });
  }
  return env;
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
  const target = new URL(mock.url);
  const hits = new Map<string, number>();
  const routes = standIn.routes.map(([from, to]) => [new RegExp(from), to] as const);
  const proxy = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const route = routes.find(([from]) => from.test(url.pathname));
    const mapped = route === undefined ? url.pathname : url.pathname.replace(route[0], route[1]);
    const key = `${req.method} ${route?.[0].source ?? 'unmapped'}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const headers = { ...req.headers, host: target.host };
    const auth = req.headers.authorization;
    if (standIn.keyWord !== undefined && auth !== undefined) {
      // The document's word for a key becomes the mock's; the mock's own word is one the target does not take.
      if (new RegExp(`^\\s*${standIn.keyWord}(\\s|$)`, 'i').test(auth))
        headers.authorization = auth.replace(new RegExp(`^(\\s*)${standIn.keyWord}`, 'i'), '$1Apikey');
      else if (/^\s*apikey(\s|$)/i.test(auth))
        headers.authorization = auth.replace(/^(\s*)apikey/i, '$1Not-A-Scheme-Here');
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${mapped}${url.search}`,
        headers,
      },
      (answer) => {
        const out = { ...answer.headers };
        const challenge = out['www-authenticate'];
        if (standIn.keyWord !== undefined && typeof challenge === 'string')
          out['www-authenticate'] = challenge.replace(/\bApikey\b/g, standIn.keyWord);
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${values['base-path'] ?? ''}`;
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
    const routeHits = [...hits].map(([k, n]) => `${k}: ${n}`).join('; ');
    process.stdout.write(
      `${standIn.document}: exit ${code}; MUST rules ${must.length}: ${count('pass')} pass, ${count('fail')} fail, ${count('skip')} skipped (${
        must
          .filter((r) => r.verdict === 'fail')
          .map((r) => r.id)
          .join(', ') || 'no failure'
      })\nrequests by route: ${routeHits}\n`,
    );
  } finally {
    proxy.close();
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
