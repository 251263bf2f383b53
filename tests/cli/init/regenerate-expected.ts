/**
 * Rewrites the expected profiles of init's document tests from what init writes now — for a change that alters
 * them on purpose; review every diff (`git diff tests/cli/init`) before committing. For each
 * `<name>.[writes.]expected-profile.json` beside `<name>.yaml|json` in corpus/ and documents/: init in-process
 * (cli/init/command.ts `runInit`), with writes for `.writes.` and for every file of documents/ (their tests run
 * with --writes). Then format them:
 *
 *   npx tsx tests/cli/init/regenerate-expected.ts && npx biome format --write tests/cli/init
 */
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInit } from '../../../cli/init/command.ts';

const FOLDERS = ['corpus', 'documents'].map((f) => path.join(import.meta.dirname, f));
const scratch = await mkdtemp(path.join(tmpdir(), 'gatecheck-regenerate-'));
try {
  for (const folder of FOLDERS)
    for (const expected of readdirSync(folder).filter((f) => f.endsWith('expected-profile.json'))) {
      const name = expected.replace(/(\.writes)?\.expected-profile\.json$/, '');
      const source = ['.yaml', '.json'].map((e) => path.join(folder, `${name}${e}`)).find(existsSync);
      if (source === undefined) throw new Error(`${expected}: no ${name}.yaml or ${name}.json beside it`);
      const writes = expected.includes('.writes.') || folder.endsWith('documents');
      const out = path.join(scratch, 'profile.json');
      await runInit({ source, out, force: true, probe: undefined, writes }, { out: () => {}, err: () => {} });
      await copyFile(out, path.join(folder, expected));
    }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
