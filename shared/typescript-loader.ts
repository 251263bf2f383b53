/**
 * Whether a Playwright run of the suite goes without Playwright's loader of TypeScript ES modules, which it
 * registers unless PW_DISABLE_TS_ESM is set. On Node 20 (no `module.registerHooks` before 22.15) that loader runs
 * on a thread of its own, and every module the runner and each worker import crosses to it and back — in a
 * default run ≈ 0.7 CPU-s of the runner's and ≈ 0.25 of each check worker's (docs/performance.md, "#36,
 * twelfth pass"). Compiled (the installed package, docs/package.md) every module of the run is JavaScript, so it
 * is turned off, unless the user's arguments name a TypeScript module (a reporter of their own) or they set the
 * variable themselves. From sources (a clone) the suite needs it. The CLI asks for the runner it starts
 * (cli/playwright.ts), the suite's config for its workers (playwright.config.ts).
 */
import { MODULE_EXT } from './paths.ts';

/** A module path of TypeScript among Playwright's arguments (`--reporter=list,./mine.ts`). */
const TYPESCRIPT_MODULE = /\.[cm]?tsx?$/;

/** The variable to add to `env` for a run with Playwright's arguments `args`: PW_DISABLE_TS_ESM=1, or nothing. */
export function loaderEnv(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  moduleExt: string = MODULE_EXT,
): NodeJS.ProcessEnv {
  if (moduleExt !== '.js' || env.PW_DISABLE_TS_ESM !== undefined) return {};
  const named = args.flatMap((a) => a.split(/[,=]/));
  return named.some((a) => TYPESCRIPT_MODULE.test(a)) ? {} : { PW_DISABLE_TS_ESM: '1' };
}
