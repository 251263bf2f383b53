/**
 * A sharded run is gated at the merge: the shards run without the gate (refused there), and
 * `merge-reports --waivers` writes the gate into the merged report and exits by it.
 */

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import { MOCK_PROFILE, scratch } from '../cli/cli.ts';
import { startDefectiveMock } from '../helpers/defect-mock.ts';
import { schemaErrors } from '../report/schema.ts';

test.describe.configure({ timeout: 400_000 });

const ONLY = 'success.200.public,success.200.post,success.200.put';

test('merge-reports --waivers: the merged report carries the gate; exit 0 with the failure waived, 1 without', async () => {
  const s = await scratch();
  const mock = await startDefectiveMock(['post-201']);
  try {
    await writeFile(
      path.join(s.dir, 'waivers.json'),
      JSON.stringify({ waivers: [{ rule: 'success.200.post', reason: 'until 4.2', until: '2026-12-31' }] }),
    );
    const target = ['--base-url', mock.url, '--profile', MOCK_PROFILE];
    for (const shard of ['1/2', '2/2']) {
      const run = await s.gatecheck([
        ...target,
        '--shard',
        shard,
        '--only',
        ONLY,
        '--report-dir',
        `shard-${shard[0]}`,
      ]);
      expect([EXIT.conformant, EXIT.nonConformant], run.stdout + run.stderr).toContain(run.code);
    }
    const env = { GATECHECK_TODAY: '2026-11-27' };
    const gated = await s.gatecheck(
      ['merge-reports', 'blob-report', ...target, '--waivers', 'waivers.json'],
      env,
    );
    expect(gated.code, gated.stdout + gated.stderr).toBe(EXIT.conformant);
    const report = await s.report();
    expect(schemaErrors(report)).toEqual([]);
    expect(report.run.merged).toBe(true);
    expect(report.rules.find((r) => r.id === 'success.200.post')).toMatchObject({
      verdict: 'fail',
      waiver: { until: '2026-12-31' },
    });
    expect(gated.stdout).toContain('gatecheck: verdict: Not conformant: 1 MUST rule fails (1 waived)\n');

    const ungated = await s.gatecheck(['merge-reports', 'blob-report', ...target], env);
    expect(ungated.code, ungated.stdout + ungated.stderr).toBe(EXIT.nonConformant);
    expect((await s.report()).gate).toBeUndefined();
  } finally {
    await mock.close();
    await s.dispose();
  }
});
