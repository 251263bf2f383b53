/**
 * The test files of a harness run (the mutation run, the stand-in corpus run), written into the run's folder:
 * one carrier per spec file of the suite (load.ts) and one for the observer verdicts. Each is an ES module of two
 * lines that imports the code the run loads — the suite compiled for the self-tests (tests/setup/compiled-suite.ts),
 * whose workers then need no TypeScript loader, or the sources. A config selects them by CARRIERS' patterns.
 */
import { readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { moduleExtUnder } from '../../shared/paths.ts';

/**
 * The carriers' names: one per spec file outside specs/fuzz/, one per spec of specs/fuzz/ (fuzz.* and
 * jwt.attack.* rules), and one for the observer verdicts.
 */
export const CARRIERS = {
  conformance: 'conformance.*.carrier.mjs',
  fuzz: 'fuzz.*.carrier.mjs',
  observers: 'observers.carrier.mjs',
} as const;

/** The spec files under `dir` ending in `suffix`, found, not listed: a spec added to specs/ is in the next run. */
export function specFiles(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...specFiles(path, suffix));
    else if (entry.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

/** A carrier: load.ts's hook, then the one module whose tests register in the carrier. */
function carrier(load: string, module: string): string {
  return `import { carrySpec } from ${JSON.stringify(load)};\nawait carrySpec(${JSON.stringify(module)});\n`;
}

/** Writes the carriers of the code under `code` (the compiled dist/ or the repository) into `dir`; `dir`. */
export async function writeCarriers(dir: string, code: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const ext = moduleExtUnder(code);
  const specs = join(code, 'specs');
  const load = pathToFileURL(join(code, `scripts/carriers/load${ext}`)).href;
  for (const file of specFiles(specs, `.spec${ext}`)) {
    const [top = '', ...rest] = relative(specs, file).split(sep);
    const part = top === 'fuzz' ? 'fuzz' : 'conformance';
    const name = [top, ...rest].join('.').slice(0, -`.spec${ext}`.length);
    await writeFile(join(dir, CARRIERS[part].replace('*', name)), carrier(load, file));
  }
  const verdicts = join(specs, `observe/observers.verdict${ext}`);
  await writeFile(join(dir, CARRIERS.observers), carrier(load, verdicts));
  return dir;
}
