/**
 * The self-tests' global setup: compiles the working tree into a temporary package-shaped folder for the
 * child runs (./compiled-suite.ts), and removes it when the run ends. ≈ 2 s, once per run.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackage } from '../../scripts/build-package.ts';
import { COMPILED_SUITE_ENV } from './compiled-suite.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default function compileSuite(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'gatecheck-compiled-'));
  try {
    buildPackage(join(root, 'dist'));
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
