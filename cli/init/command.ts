/**
 * `gatecheck init <openapi> [--out FILE] [--force] [--probe URL] [--writes]`: writes a starting profile from
 * the target's OpenAPI document (openapi-profile.ts), checked against the profile's JSON Schema, and beside it
 * a `.env`-style file naming every variable the profile reads; prints what it had to guess as a to-do list,
 * every variable whole, and the sample item the write rules will send (docs/package.md "gatecheck init").
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { schemaValidator } from '../../shared/json-schema.ts';
import { SCHEMAS_DIR } from '../../shared/paths.ts';
import { UsageError } from '../exit-codes.ts';
import type { Io } from '../outcome.ts';
import { envFile, variablesOf, variablesTodo } from './credentials.ts';
import type { Refuted } from './endpoints-section.ts';
import { profileFromOpenApi } from './openapi-profile.ts';
import { probePicks } from './probe-picks.ts';
import { probeReport, unconfirmed } from './probe-report.ts';
import { readOpenApi } from './read-document.ts';

export interface InitOptions {
  /** File path or http(s) URL of the OpenAPI document. */
  readonly source: string;
  readonly out: string;
  readonly force: boolean;
  readonly probe: string | undefined;
  /** Pick a collection for the write rules (they create, change and delete an item). */
  readonly writes?: boolean;
  /** `--server <n|url>`: which of the document's servers is the baseUrl (1-based index, or a URL it lists). */
  readonly server?: string;
  /** Where `--probe` reads the credentials the profile names (default: the process's environment). */
  readonly env?: NodeJS.ProcessEnv;
}

/** `target.profile.json` → `target.profile.env.example`: the variables' names, beside the profile. */
export function envFilePath(out: string): string {
  return `${out.replace(/\.json$/i, '')}.env.example`;
}

export async function runInit(options: InitOptions, io: Io): Promise<void> {
  if (!existsSync(path.dirname(options.out)))
    throw new UsageError(`init: cannot write ${options.out}: its directory does not exist`);
  const envPath = envFilePath(options.out);
  for (const file of [options.out, envPath])
    if (existsSync(file) && !options.force)
      throw new UsageError(`init: ${file} exists; give --force to replace it, or --out another file`);
  const { doc, notes } = await readOpenApi(options.source);
  const make = (refuted: Refuted) =>
    profileFromOpenApi(doc, {
      notes,
      writes: options.writes === true,
      refuted,
      ...(options.server === undefined ? {} : { server: options.server }),
      ...(/^https?:\/\//i.test(options.source) ? { documentUrl: options.source } : {}),
    });
  // --probe: the picks checked against the target's answers before anything is written (probe-picks.ts).
  const probed =
    options.probe === undefined
      ? undefined
      : await probePicks(make, options.probe, options.env ?? process.env);
  const { profile, todo, sampleItem } = probed?.result ?? make({});
  if (probed !== undefined) todo.push(...unconfirmed(probed));
  checkAgainstSchema(profile, todo);
  // The variables of the profile as written: a section the schema check left out reads none.
  const variables = variablesOf(profile);
  const setThem = variablesTodo(variables);
  if (setThem !== undefined) todo.push(setThem);
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
  await writeFile(options.out, `${JSON.stringify(profile, null, 2)}\n`);
  await writeFile(envPath, envFile(variables, path.basename(options.out)));
  io.out(`gatecheck init: wrote ${shown(options.out)} from ${options.source}\n`);
  io.out(`To do (also in the profile's "todo" list):\n${todo.map((t) => `  - ${t}\n`).join('')}`);
  io.out(
    variables.length === 0
      ? 'Variables: none (the profile names no credential)\n'
      : `Variables the run reads (names also in ${shown(envPath)}):\n${variables.map((v) => `  ${v.name}  ${v.field}\n`).join('')}`,
  );
  if (sampleItem !== undefined)
    io.out(`Sample item the write rules will POST:\n  ${JSON.stringify(sampleItem)}\n`);

  if (probed !== undefined) io.out(probeReport(options.probe as string, probed));
}

/** Sections copied from the document's `x-gatecheck-*` extensions (document-extensions.ts), by pointer. */
const FROM_EXTENSIONS = ['/jwt', '/rateLimit', '/fault', '/blocked', '/endpoints/collection/maxBodyBytes'];

/**
 * The profile must pass its JSON Schema before it is written. A section the document's extensions supplied
 * and the schema refuses is the document's mistake: it is left out, with a to-do line naming it; anything
 * else is init's own and stops it.
 */
function checkAgainstSchema(profile: Record<string, unknown>, todo: string[]): void {
  const validate = schemaValidator(path.join(SCHEMAS_DIR, 'profile.schema.json'));
  for (let attempt = 0; attempt <= FROM_EXTENSIONS.length; attempt++) {
    if (validate(profile)) return;
    const first = validate.errors?.[0];
    const at = first?.instancePath ?? '';
    const section = FROM_EXTENSIONS.find((p) => at === p || at.startsWith(`${p}/`));
    if (section === undefined)
      throw new Error(`init produced a profile the schema refuses at ${at}: ${first?.message}`);
    const keys = section.split('/').slice(1);
    const parent = keys
      .slice(0, -1)
      .reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, profile);
    delete parent[keys.at(-1) as string];
    // Its own to-do lines go with it: nothing left asks for what the profile no longer holds.
    for (let i = todo.length - 1; i >= 0; i--)
      if (todo[i]?.startsWith(`${section}/`) || todo[i]?.startsWith(`${section}:`)) todo.splice(i, 1);
    todo.push(
      `${section}: the document's x-gatecheck-* value is not what the profile takes (${at} ${first?.message}); left out`,
    );
  }
}
