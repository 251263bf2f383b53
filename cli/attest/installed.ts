/** This installation as `verify` compares a statement with it: its version and its rule catalogue. */
import { catalogueJson, type LoadedCatalogue, loadCatalogue } from '../../specs/report/catalogue-source.ts';
import { suiteVersion } from '../../specs/report/suite-version.ts';
import { sha256Hex } from './digest.ts';
import type { VerifyInput } from './verify.ts';

export function installedOf(catalogue: LoadedCatalogue): VerifyInput['installed'] {
  return {
    suiteVersion: suiteVersion(),
    catalogue: {
      version: catalogue.version,
      sha256: sha256Hex(catalogueJson(catalogue)),
      rules: catalogue.rules.map(({ id, level, requires }) => ({
        id,
        level,
        ...(requires ? { requires } : {}),
      })),
    },
  };
}

export async function installed(): Promise<VerifyInput['installed']> {
  return installedOf(await loadCatalogue());
}
