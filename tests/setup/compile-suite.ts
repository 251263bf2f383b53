/**
 * The self-tests' global setup: compiles the working tree into a temporary package-shaped folder for the
 * child runs (./compiled-suite.ts), and removes it when the run ends. ≈ 2 s, once per run. A run that was
 * killed cannot remove its folder (≈ 5 MB): folders of this kind older than a day are removed first.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '../../scripts/build-package.ts';
import { COMPILED_SUITE_ENV } from './compiled-suite.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The self-tests' own child runs compiled with the suite, to their places under dist/: the mutation run's
 * config, reporter and carrier module, and the stand-in corpus run's config and reporter. Their workers then
 * load no TypeScript either (≈ 200 workers a run).
 */
const CHILD_RUN_ENTRIES = [
  'tests/mutation/mutation.config.ts',
  'tests/mutation/harness/progress-reporter.ts',
  'scripts/carriers/load.ts',
  'scripts/stand-in-corpus/run.config.ts',
  'scripts/stand-in-corpus/report.ts',
];
const PREFIX = 'gatecheck-compiled-';
const STALE_MS = 24 * 3600_000;

function removeStale(now: number): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = join(tmpdir(), name);
    try {
      if (now - statSync(folder).mtimeMs > STALE_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already, or another user's.
    }
  }
}

export default function compileSuite(): () => void {
  removeStale(Date.now());
  const root = mkdtempSync(join(tmpdir(), PREFIX));
  try {
    buildPackage(join(root, 'dist'), CHILD_RUN_ENTRIES);
    cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    for (const linked of ['fixtures', 'node_modules', 'docs'])
      symlinkSync(join(ROOT, linked), join(root, linked));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  // Workers inherit the runner's environment.
  process.env[COMPILED_SUITE_ENV] = root;
  return () => rmSync(root, { recursive: true, force: true });
}
