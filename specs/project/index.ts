/** `gatecheck/playwright`: the suite inside the user's own Playwright config (docs/package.md). */

/** A project's own target (`gatecheckProjects({ target })`, or `use: { runTarget }`): docs/ci.md. */
export type { RunTargetOption } from '../run-target.ts';
export {
  type GatecheckProjectOptions,
  gatecheckGlobalSetup,
  gatecheckProjects,
  gatecheckReporter,
} from './gatecheck-project.ts';
