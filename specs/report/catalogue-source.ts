/**
 * Where the report and the CLI get the rule catalogue from. Loaded by path so a test can point the
 * reporter at a small catalogue of its own (a synthetic project) without touching the real one.
 */

import { pathToFileURL } from 'node:url';
import { codeModule } from '../../shared/paths.ts';
import type { Rule } from '../rules/types.ts';

export interface LoadedCatalogue {
  readonly rules: readonly Rule[];
  readonly version: string;
}

/** specs/rules/catalogue.ts: `export const catalogue: readonly Rule[]` and `export const CATALOGUE_VERSION`. */
export const DEFAULT_CATALOGUE_MODULE = pathToFileURL(codeModule('specs/rules/catalogue')).href;

export async function loadCatalogue(module: string = DEFAULT_CATALOGUE_MODULE): Promise<LoadedCatalogue> {
  const specifier = /^(file|data|https?):/.test(module) ? module : pathToFileURL(module).href;
  const loaded = (await import(specifier)) as { catalogue?: unknown; CATALOGUE_VERSION?: unknown };
  if (!Array.isArray(loaded.catalogue)) {
    throw new TypeError(`${module} does not export \`catalogue\` as an array of rules`);
  }
  return {
    rules: loaded.catalogue as readonly Rule[],
    version: typeof loaded.CATALOGUE_VERSION === 'string' ? loaded.CATALOGUE_VERSION : 'unversioned',
  };
}

/**
 * The catalogue as `gatecheck rules --json` prints it: the exact bytes a signed statement's catalogue digest
 * is taken over, so anyone can recompute it (`npx gatecheck@<version> rules --json | sha256sum`).
 */
export function catalogueJson(catalogue: LoadedCatalogue): string {
  return `${JSON.stringify(catalogue, null, 2)}\n`;
}
