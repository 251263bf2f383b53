/**
 * Preloaded into the processes of the mutation run's child `playwright test` (NODE_OPTIONS=--import): in a
 * Playwright worker it points the suite at the mock of the worker's project, through BASE_URL,
 * GATECHECK_PROFILE and GATECHECK_BUDGET — the variables any run of the suite reads — before the suite's
 * fixtures read them. A worker learns its project from the runner's `__init__` message (its `projectId`
 * is the project name, which is the target's name); this listener is registered before Playwright's own,
 * so it sees the message first. Plain JavaScript: it runs before any TypeScript loader.
 *
 * Should the message ever change shape, no variable is set and every check of the run fails with "no
 * target" — loudly, never silently against the wrong mock.
 */
import { readFileSync } from 'node:fs';

const manifestPath = process.env.GATECHECK_MUTATION_MANIFEST;
if (manifestPath && typeof process.send === 'function') {
  const { targets } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const onMessage = (message) => {
    if (message?.method !== '__init__') return;
    process.off('message', onMessage);
    const projectId = message.params?.runnerParams?.projectId;
    const target = targets.find((t) => t.name === projectId);
    if (target === undefined) return;
    process.env.BASE_URL = target.url;
    process.env.GATECHECK_PROFILE = target.profile;
    process.env.GATECHECK_BUDGET = String(target.budget);
  };
  process.on('message', onMessage);
}
