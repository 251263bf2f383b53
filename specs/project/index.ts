/** `gatecheck/playwright`: the suite inside the user's own Playwright config (docs/package.md). */
export {
  type GatecheckProjectOptions,
  gatecheckGlobalSetup,
  gatecheckProjects,
  gatecheckReporter,
} from './gatecheck-project.ts';
