/**
 * Sharding: each shard's reporter writes a partial report (rules of other shards "not run"), and
 * `playwright merge-reports` replays the shards' blob reports through the same reporter, which then
 * writes the whole verdict — evidence included, whether attached as a body or as a file.
 */

import path from 'node:path';
import { expect, test } from '@playwright/test';
import { schemaErrors } from './schema.ts';
import { createProject, rule } from './synthetic.ts';

// Each test starts Playwright (and sometimes the mock) in child processes: generous on a shared 2-core box.
test.describe.configure({ timeout: 120_000 });

const EVIDENCE = (id: string) =>
  JSON.stringify({
    rule: id,
    expected: 'status 401',
    actual: 'status 200',
    request: { method: 'GET', url: 'http://127.0.0.1:9/p', headers: {} },
    replay: 'curl -i http://127.0.0.1:9/p',
  });

test('shards report partially; merge-reports over their blobs gives the whole verdict', async () => {
  const project = await createProject({
    catalogue: [rule('a.one', 'MUST'), rule('a.two', 'MUST'), rule('b.one', 'MUST'), rule('b.two', 'SHOULD')],
    reporters: [['blob']],
    files: {
      'a.spec.ts': `
import { expect, test } from '@playwright/test';
test('a.one passes', { tag: ['@must', '@rule:a.one'] }, async () => {});
test('a.two fails with evidence in the body', { tag: ['@must', '@rule:a.two'] }, async () => {
  await test.info().attach('evidence.json', { contentType: 'application/json', body: ${JSON.stringify(EVIDENCE('a.two'))} });
  expect(200).toBe(401);
});
`,
      'b.spec.ts': `
import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
test('b.one fails with evidence in a file', { tag: ['@must', '@rule:b.one'] }, async ({}, testInfo) => {
  const file = testInfo.outputPath('evidence.json');
  writeFileSync(file, ${JSON.stringify(EVIDENCE('b.one'))});
  await testInfo.attach('evidence.json', { contentType: 'application/json', path: file });
  expect(200).toBe(401);
});
test('b.two warns', { tag: ['@should', '@rule:b.two'] }, async () => {
  test.info().annotations.push({ type: 'warning', description: 'b.two warned' });
});
`,
    },
  });
  try {
    const blobs = path.join(project.dir, 'blobs');
    for (const shard of [1, 2]) {
      const run = await project.run(['--shard', `${shard}/2`], {
        PLAYWRIGHT_BLOB_OUTPUT_FILE: path.join(blobs, `report-${shard}.zip`),
      });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const partial = await project.report();
      expect(schemaErrors(partial)).toEqual([]);
      expect(partial.run.shard).toBe(`${shard}/2`);
      const notRun = partial.rules.filter((r) => r.verdict === 'not-run');
      expect(notRun).toHaveLength(2);
      expect(notRun[0]?.reason).toContain(`not in shard ${shard}/2`);
    }

    const merged = await project.merge(blobs);
    // merge-reports exits 0 whatever the tests did: why the CLI takes its exit code from conformance.json.
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const report = await project.report();
    expect(schemaErrors(report)).toEqual([]);
    expect(report.run).toMatchObject({ merged: true, shard: null, status: 'failed' });
    expect(report.rules.map((r) => [r.id, r.verdict])).toEqual([
      ['a.one', 'pass'],
      ['a.two', 'fail'],
      ['b.one', 'fail'],
      ['b.two', 'warn'],
    ]);
    expect(report.conformance.failing).toEqual(['a.two', 'b.one']);
    for (const id of ['a.two', 'b.one']) {
      const evidence = report.rules.find((r) => r.id === id)?.evidence;
      expect(evidence, id).toHaveLength(1);
      expect(evidence?.[0]?.replay).toBe('curl -i http://127.0.0.1:9/p');
    }
    expect(report.rules.find((r) => r.id === 'a.one')?.tests[0]?.location).toBe('a.spec.ts:3');
  } finally {
    await project.dispose();
  }
});
