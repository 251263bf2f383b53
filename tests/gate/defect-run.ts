/**
 * One CLI run of the gate's transcripts (transcript.test.ts, cascade-transcript.test.ts): the real bin against the
 * mock with `defects` on, bounded to `only`, today injected; the report of `reportDir` read back and checked
 * against its schema, and the workflow commands (`::error`, `::warning`) the run printed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import type { DefectName } from '../../mock/defects/registry.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { MOCK_PROFILE, type Scratch } from '../cli/cli.ts';
import { startDefectiveMock } from '../helpers/defect-mock.ts';
import { schemaErrors } from '../report/schema.ts';

export interface GateRun {
  readonly only: string;
  readonly today: string;
}

export async function runGateAgainst(
  s: Scratch,
  setting: GateRun,
  defects: readonly DefectName[],
  reportDir: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) {
  const mock = await startDefectiveMock(defects);
  try {
    const run = await s.gatecheck(
      [
        '--base-url',
        mock.url,
        '--profile',
        MOCK_PROFILE,
        '--only',
        setting.only,
        '--report-dir',
        reportDir,
        ...extra,
      ],
      { GATECHECK_TODAY: setting.today, ...env },
    );
    const report = JSON.parse(
      await readFile(path.join(s.dir, reportDir, 'conformance.json'), 'utf8'),
    ) as ConformanceReport;
    expect(schemaErrors(report)).toEqual([]);
    const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::'));
    return { run, report, out: run.stdout + run.stderr, annotations };
  } finally {
    await mock.close();
  }
}
