/**
 * The test files of a mutation run: one carrier per spec file of the suite (suite/load.ts), written into the
 * run's folder. `fuzz.<name>.mutation.mts` (an ES module wherever the run's folder is) carries a spec of specs/fuzz/ (fuzz.* and jwt.attack.* rules),
 * `conformance.<name>.mutation.mts` any other; mutation.config.ts leaves the fuzz carriers out of the targets
 * that skip the fuzz specs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { specFiles } from '../suite/load.ts';
import { ROOT } from './paths.ts';

/** The carriers' glob for the specs outside specs/fuzz/, and for those inside. */
export const CARRIERS = { conformance: 'conformance.*.mutation.mts', fuzz: 'fuzz.*.mutation.mts' } as const;

/** Writes one carrier per spec file into `dir`; `dir`. */
export async function writeCarriers(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const specs = join(ROOT, 'specs');
  const load = pathToFileURL(join(ROOT, 'tests/mutation/suite/load.ts')).href;
  for (const file of specFiles(specs)) {
    const [top = '', ...rest] = relative(specs, file).split(sep);
    const part = top === 'fuzz' ? 'fuzz' : 'conformance';
    const name = [top, ...rest].join('.').replace(/\.spec\.ts$/, '');
    await writeFile(
      join(dir, `${part}.${name}.mutation.mts`),
      `import { carrySpec } from ${JSON.stringify(load)};\nawait carrySpec(${JSON.stringify(file)});\n`,
    );
  }
  return dir;
}
