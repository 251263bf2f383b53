/**
 * Runs the real `gatecheck` bin in a child process, in a scratch directory, with a clean environment: the bin
 * of the compiled working tree (../setup/compiled-suite.ts), as the installed package runs it.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { cleanEnv, ROOT, type RunResult, runNode } from '../report/synthetic.ts';
import { compiledSuite } from '../setup/compiled-suite.ts';

/** The `gatecheck` bin: asked when a test runs, after the self-tests' global setup compiled it. */
export function gatecheckBin(): string {
  return compiledSuite().bin;
}
export const MOCK_PROFILE = path.join(ROOT, 'fixtures/mock.profile.json');

export interface Scratch {
  readonly dir: string;
  gatecheck(args: readonly string[], env?: Record<string, string>): Promise<RunResult>;
  report(reportDir?: string): Promise<ConformanceReport>;
  dispose(): Promise<void>;
}

export async function scratch(): Promise<Scratch> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-cli-'));
  return {
    dir,
    gatecheck: (args, env = {}) => runNode([gatecheckBin(), ...args], dir, cleanEnv(env)),
    report: async (reportDir = 'reports') =>
      JSON.parse(await readFile(path.join(dir, reportDir, 'conformance.json'), 'utf8')) as ConformanceReport,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
