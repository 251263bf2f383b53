/**
 * `gatecheck init <openapi> [--out FILE] [--force] [--probe URL]`: writes a starting profile from the
 * target's OpenAPI document (openapi-profile.ts), checked against the profile's JSON Schema, and prints what
 * it had to guess as a to-do list (docs/package.md "gatecheck init").
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { schemaValidator } from '../../shared/json-schema.ts';
import { SCHEMAS_DIR } from '../../shared/paths.ts';
import { UsageError } from '../exit-codes.ts';
import type { Io } from '../outcome.ts';
import { profileFromOpenApi } from './openapi-profile.ts';
import { probe } from './probe.ts';
import { readOpenApi } from './read-document.ts';

export interface InitOptions {
  /** File path or http(s) URL of the OpenAPI document. */
  readonly source: string;
  readonly out: string;
  readonly force: boolean;
  readonly probe: string | undefined;
}

export async function runInit(options: InitOptions, io: Io): Promise<void> {
  if (existsSync(options.out) && !options.force)
    throw new UsageError(`init: ${options.out} exists; give --force to replace it, or --out another file`);
  const doc = await readOpenApi(options.source);
  const { profile, todo } = profileFromOpenApi(doc);
  const validate = schemaValidator(path.join(SCHEMAS_DIR, 'profile.schema.json'));
  if (!validate(profile)) {
    const first = validate.errors?.[0];
    throw new Error(
      `init produced a profile the schema refuses at ${first?.instancePath}: ${first?.message}`,
    );
  }
  await writeFile(options.out, `${JSON.stringify(profile, null, 2)}\n`);
  io.out(
    `gatecheck init: wrote ${path.relative(process.cwd(), options.out) || options.out} from ${options.source}\n`,
  );
  io.out(`To do (also in the profile's "todo" list):\n${todo.map((t) => `  - ${t}\n`).join('')}`);

  if (options.probe !== undefined) {
    const endpoints = profile.endpoints as Record<string, { path: string; schemes?: unknown[] } | undefined>;
    const targets = Object.entries(endpoints)
      .filter(([name, e]) => e !== undefined && ['public', 'protected', 'admin'].includes(name))
      .map(([name, e]) => ({ path: (e as { path: string }).path, public: name === 'public' }));
    io.out(`Probe of ${options.probe}:\n`);
    const lines = await probe(options.probe, targets);
    for (const line of lines)
      io.out(
        `  ${line.request} → ${line.status ?? '-'}${line.challenge ? `  WWW-Authenticate: ${line.challenge}` : ''}\n`,
      );
    const disagreements = lines.filter((l) => l.disagreement !== undefined);
    io.out(
      disagreements.length === 0
        ? '  The target agrees with its document.\n'
        : `Disagreements:\n${disagreements.map((l) => `  - ${l.request}: ${l.disagreement}\n`).join('')}`,
    );
  }
}
