/**
 * What `gatecheckGlobalSetup` names since the suite's set-up became its setup project (issue #40): nothing, so
 * that a config written for gatecheck 0.1 still loads, and a run that selects none of the suite's checks
 * still does nothing of the suite's.
 */
export default async function noGlobalSetup(): Promise<void> {}
