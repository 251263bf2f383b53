/**
 * What a run over several corpus documents hands Playwright (run.config.ts, report.ts): one target per
 * document, written to a file by the process that started the documents' mocks (run.ts) and named by an
 * environment variable, since Playwright loads the config in its runner and again in every worker.
 */
import { readFileSync } from 'node:fs';

export const MANIFEST_ENV = 'GATECHECK_STAND_IN_MANIFEST';

/** One document's target: its mock, the profile init wrote, the variables the mock printed. */
export interface DocumentTarget {
  /** The document's name: its projects' name (`<name>`, `<name>-observers`) and its report's (`<name>.json`). */
  readonly name: string;
  readonly url: string;
  readonly profile: string;
  readonly budget: number;
  /** The mock's printed credentials, and the profile's digest (PROFILE_CHECKED_ENV): the project's `runTarget.env`. */
  readonly env: Readonly<Record<string, string>>;
}

export interface Manifest {
  readonly targets: readonly DocumentTarget[];
  /** Where report.ts writes `<name>.json`, one conformance report per document. */
  readonly reportDir: string;
  /** The run's test files: one carrier per spec file and one for the observer verdicts (scripts/carriers/). */
  readonly carriers: string;
}

export const OBSERVERS_SUFFIX = '-observers';

export function readManifest(env: NodeJS.ProcessEnv = process.env): Manifest {
  const file = env[MANIFEST_ENV];
  if (!file) throw new Error(`${MANIFEST_ENV} is not set: the stand-in corpus run (run.ts) sets it`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}
