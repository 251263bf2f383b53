/**
 * The claims table over the whole corpus (tests/cli/init/corpus/): per document, what `gatecheck init --writes`
 * writes measured against the document — unfounded claims (claims.ts, an independent reading of the document),
 * missed facts and wrong picks (the document's `*.claims.json`, facts written down by hand from the document:
 * the key's form, the server to use, the inputs a pick requires, the acceptable protected, admin and collection
 * picks and the collections never to write to). A crash counts as one missed fact.
 *
 *   npx tsx tests/cli/init/claims-table.ts                 # this checkout
 *   npx tsx tests/cli/init/claims-table.ts --root <dir>    # another checkout's cli/init (say, main's)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readOpenApi } from '../../../cli/init/read-document.ts';
import { unfoundedClaims } from './claims.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const CORPUS = path.join(import.meta.dirname, 'corpus');

export interface Facts {
  readonly apikeyScheme?: string;
  readonly baseUrl?: readonly string[];
  readonly public?: readonly string[];
  readonly protected?: readonly string[];
  readonly admin?: readonly string[];
  readonly collection?: readonly string[];
  readonly never?: readonly string[];
  readonly writer?: string;
  readonly inputs?: Record<string, { query?: Record<string, string>; headers?: Record<string, string> }>;
}

export interface Row {
  readonly document: string;
  readonly unfounded: string[];
  readonly missed: string[];
  readonly wrong: string[];
}

type RunInit = (
  options: { source: string; out: string; force: boolean; probe: undefined; writes: boolean },
  io: { out: (t: string) => void; err: (t: string) => void },
) => Promise<void>;

/** What one profile gets wrong against the document's facts. */
export function judge(facts: Facts, profile: Json): { missed: string[]; wrong: string[] } {
  const missed: string[] = [];
  const wrong: string[] = [];
  const endpoints = isObject(profile.endpoints) ? profile.endpoints : {};
  const todo = Array.isArray(profile.todo) ? profile.todo.map(String) : [];
  const at = (role: string) =>
    isObject(endpoints[role]) ? String((endpoints[role] as Json).path) : undefined;
  if (facts.apikeyScheme === 'unstated') {
    if (!todo.some((t) => t.startsWith('/apikeyScheme:') && t.includes('does not say')))
      missed.push('apikeyScheme: the document states no word, and no to-do says so');
  } else if (facts.apikeyScheme !== undefined) {
    const got = typeof profile.apikeyScheme === 'string' ? profile.apikeyScheme : undefined;
    if (got?.toLowerCase() !== facts.apikeyScheme.toLowerCase())
      missed.push(
        `apikeyScheme: the document states "${facts.apikeyScheme}", the profile has "${got ?? '(none)'}"`,
      );
  }
  if (facts.baseUrl !== undefined && !facts.baseUrl.includes(String(profile.baseUrl)))
    missed.push(`baseUrl: ${String(profile.baseUrl)}, not the document's ${facts.baseUrl.join(' or ')}`);
  for (const [role, wanted] of Object.entries(facts.inputs ?? {})) {
    const e = isObject(endpoints[role]) ? (endpoints[role] as Json) : {};
    for (const kind of ['query', 'headers'] as const)
      for (const [name, value] of Object.entries(wanted[kind] ?? {})) {
        const given = isObject(e[kind]) ? (e[kind] as Json)[name] : undefined;
        if (given === undefined || (value !== '*' && given !== value))
          missed.push(`${role}: the document requires ${kind} ${name}, which the endpoint does not carry`);
      }
  }
  for (const role of ['public', 'protected', 'admin', 'collection'] as const) {
    const acceptable = facts[role];
    const got = at(role);
    if (acceptable === undefined) continue;
    if (acceptable.length === 0 && got !== undefined)
      wrong.push(`${role}: ${got}, where the document offers none fit`);
    else if (acceptable.length > 0 && got === undefined)
      missed.push(`${role}: none picked, the document has ${acceptable[0]}`);
    else if (got !== undefined && acceptable.length > 0 && !acceptable.includes(got))
      wrong.push(`${role}: ${got}, not one of ${acceptable.join(', ')}`);
  }
  const collection = at('collection');
  if (collection !== undefined && facts.never?.includes(collection))
    wrong.push(`collection: ${collection}, which the document shows must not be written to`);
  const writer = isObject(endpoints.collection) ? (endpoints.collection as Json).writer : undefined;
  if (facts.writer !== undefined && collection !== undefined && writer !== facts.writer)
    wrong.push(`collection/writer: ${String(writer)}, not ${facts.writer}`);
  return { missed, wrong };
}

/** The table over every corpus document that has a claims file, with `runInit` (this checkout's by default). */
export async function claimsTable(runInit: RunInit): Promise<Row[]> {
  const rows: Row[] = [];
  const files = readdirSync(CORPUS).filter((f) => /\.(json|yaml)$/.test(f) && !/expected|claims/.test(f));
  for (const file of files.sort()) {
    const claimsFile = path.join(CORPUS, file.replace(/\.(json|yaml)$/, '.claims.json'));
    let facts: Facts;
    try {
      facts = JSON.parse(readFileSync(claimsFile, 'utf8')) as Facts;
    } catch {
      continue;
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-claims-'));
    try {
      const out = path.join(dir, 'profile.json');
      await runInit(
        { source: path.join(CORPUS, file), out, force: true, probe: undefined, writes: true },
        { out: () => {}, err: () => {} },
      );
      const profile = JSON.parse(await readFile(out, 'utf8')) as Json;
      const { doc } = await readOpenApi(path.join(CORPUS, file));
      rows.push({ document: file, unfounded: unfoundedClaims(doc, profile), ...judge(facts, profile) });
    } catch (error) {
      rows.push({
        document: file,
        unfounded: [],
        missed: [`crash: ${(error as Error).message.split('\n')[0]}`],
        wrong: [],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

export function markdown(rows: readonly Row[]): string {
  const lines = ['| document | unfounded | missed | wrong picks | what |', '| --- | --- | --- | --- | --- |'];
  for (const r of rows)
    lines.push(
      `| ${r.document} | ${r.unfounded.length} | ${r.missed.length} | ${r.wrong.length} | ${[...r.unfounded, ...r.missed, ...r.wrong].join('; ').replaceAll('|', '\\|')} |`,
    );
  const sum = (k: 'unfounded' | 'missed' | 'wrong') => rows.reduce((n, r) => n + r[k].length, 0);
  lines.push(
    `| **${rows.length} documents** | **${sum('unfounded')}** | **${sum('missed')}** | **${sum('wrong')}** | |`,
  );
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--root');
  const root = i > 0 ? path.resolve(process.argv[i + 1] ?? '.') : path.join(import.meta.dirname, '../../..');
  const { runInit } = (await import(pathToFileURL(path.join(root, 'cli/init/command.ts')).href)) as {
    runInit: RunInit;
  };
  console.log(markdown(await claimsTable(runInit)));
}
