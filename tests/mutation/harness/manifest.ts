/**
 * What the mutation test tells the child Playwright run (tests/mutation/mutation.config.ts): one entry per
 * target — a name (the defect, or `conformant`), the mock's URL, the profile and the fuzz budget. Written as
 * JSON to a temporary file named by GATECHECK_MUTATION_MANIFEST; the config turns each entry into a project
 * whose `runTarget` option (specs/kit/fixtures.ts) points the suite at that mock.
 */
import { readFileSync } from 'node:fs';

export const MANIFEST_ENV = 'GATECHECK_MUTATION_MANIFEST';
/** The project of the conformant mock; every other project is named after its defect. */
export const CONFORMANT = 'conformant';

/**
 * The project of a target's observer verdicts (specs/observe/): the target project's teardown, named after
 * it; its results count as the target's.
 */
export const OBSERVERS_SUFFIX = ' observers';

/** The target a project belongs to: its own name, or the name its observers project carries. */
export function targetOfProject(project: string): string {
  return project.endsWith(OBSERVERS_SUFFIX) ? project.slice(0, -OBSERVERS_SUFFIX.length) : project;
}

export interface ManifestTarget {
  readonly name: string;
  readonly url: string;
  readonly profile: string;
  /** GATECHECK_BUDGET for this target's run. */
  readonly budget: number;
  /** The rules whose checks run against this target; absent: every check of the suite. */
  readonly rules?: readonly string[];
}

export interface Manifest {
  readonly targets: readonly ManifestTarget[];
  /** The folder of the run's test files, one carrier per spec file (scripts/carriers/write.ts). */
  readonly suiteDir: string;
  /** Targets whose run leaves out the fuzz specs (specs/fuzz/). */
  readonly skipFuzz: readonly string[];
}

/**
 * The project `grep` that keeps the checks of `rules` (their `@rule:<id>` tag, specs/kit/fixtures.ts), or undefined
 * for every check. A rule id ends at the tag's end: `jwt.alg.none` does not select `jwt.alg.none-case`.
 */
export function rulesGrep(rules: readonly string[] | undefined): RegExp | undefined {
  if (rules === undefined) return undefined;
  const ids = rules.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`@rule:(?:${ids.join('|')})(?![\\w.-])`);
}

export function readManifest(env: NodeJS.ProcessEnv = process.env): Manifest {
  const path = env[MANIFEST_ENV];
  if (!path)
    throw new Error(`${MANIFEST_ENV} is not set: this configuration is run by tests/mutation/score.test.ts`);
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}
