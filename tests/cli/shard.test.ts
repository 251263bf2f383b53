/**
 * Sharding through the CLI with the real suite: each `--shard n/m` run writes its blob report and a partial
 * verdict; `gatecheck merge-reports` turns the blobs into the whole verdict and takes its exit code from it.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import { schemaErrors } from '../report/schema.ts';
import { scratch } from './cli.ts';

// Each test starts Playwright (and sometimes the mock) in child processes: generous on a shared 2-core box.
test.describe.configure({ timeout: 120_000 });

const ONLY = 'success.200.public,auth.401.missing,authz.403.lacking-role,method.405.status';

test('two shards and merge-reports: the merged report holds every selected rule once', async () => {
  const s = await scratch();
  try {
    const seen = new Set<string>();
    for (const shard of ['1/2', '2/2']) {
      const run = await s.gatecheck(['--shard', shard, '--only', ONLY, '--report-dir', `shard-${shard[0]}`]);
      expect(run.code, run.stdout + run.stderr).toBe(EXIT.conformant);
      expect(run.stdout).toContain(`blob report blob-report/report-${shard[0]}.zip`);
      const partial = await s.report(`shard-${shard[0]}`);
      expect(partial.run.shard).toBe(shard);
      for (const rule of partial.rules) if (rule.verdict !== 'not-run') seen.add(rule.id);
    }
    // Each shard checked part of the selection, together all of it.
    expect([...seen].sort()).toEqual(ONLY.split(',').sort());
    expect(existsSync(path.join(s.dir, 'blob-report/report-1.zip'))).toBe(true);
    expect(existsSync(path.join(s.dir, 'blob-report/report-2.zip'))).toBe(true);

    const merged = await s.gatecheck(['merge-reports', 'blob-report']);
    expect(merged.code, merged.stdout + merged.stderr).toBe(EXIT.conformant);
    expect(merged.stdout).toContain(
      'Report: reports/conformance.html (also conformance.json, summary.md, junit.xml)',
    );
    const report = await s.report();
    expect(schemaErrors(report)).toEqual([]);
    expect(report.run).toMatchObject({ merged: true, shard: null });
    const checked = report.rules.filter((r) => r.verdict !== 'not-run');
    expect(checked.map((r) => r.id).sort()).toEqual(ONLY.split(',').sort());
    expect(checked.every((r) => r.verdict === 'pass')).toBe(true);
    for (const file of ['conformance.html', 'summary.md', 'junit.xml']) {
      expect(existsSync(path.join(s.dir, 'reports', file)), file).toBe(true);
    }
  } finally {
    await s.dispose();
  }
});

test('merge-reports without blob reports is a usage error', async () => {
  const s = await scratch();
  try {
    const run = await s.gatecheck(['merge-reports', '.']);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('holds no blob report (.zip) from a --shard run');
  } finally {
    await s.dispose();
  }
});
