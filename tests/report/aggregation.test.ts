/**
 * The reporter on a synthetic Playwright project: one rule per aggregation case, checked through the
 * conformance.json it writes (and that file against its published schema).
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport, RuleReport } from '../../specs/report/model.ts';
import { schemaErrors } from './schema.ts';
import { createProject, rule, type SyntheticProject } from './synthetic.ts';

// Each test starts Playwright (and sometimes the mock) in child processes: generous on a shared 2-core box.
test.describe.configure({ timeout: 120_000 });

const SPEC = `
import { expect, test } from '@playwright/test';

const meta = (id, level) => ({
  tag: ['@' + level, '@rule:' + id],
  annotation: [{ type: 'rule', description: id }, { type: 'ref', description: 'https://www.rfc-editor.org/rfc/rfc9110' }],
});
const evidence = (rule, expected, actual) => ({
  rule, expected, actual,
  request: { method: 'GET', url: 'http://127.0.0.1:9/admin', headers: { authorization: 'Bearer abcd…[redacted]' } },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
  replay: "curl -i -H 'Authorization: Bearer abcd…[redacted]' http://127.0.0.1:9/admin",
});

test('GET admin path with a user token → 403 (first check passes)', meta('r.must.pass', 'must'), async () => {});
test('GET admin path with a user token → 403 (second check passes)', meta('r.must.pass', 'must'), async () => {});
test.describe('missing credentials', () => {
  test('GET protected path without credentials → 401 (passes)', meta('r.must.fail', 'must'), async () => {});
  test('GET protected path with a bad token → 401 (fails)', meta('r.must.fail', 'must'), async () => {
    await test.info().attach('evidence.json', {
      contentType: 'application/json',
      body: JSON.stringify(evidence('r.must.fail', 'status 401', 'status 200')),
    });
    expect(200, '[r.must.fail] expected status 401').toBe(401);
  });
});
test('problem+json status matches (fails)', meta('r.should.fail', 'should'), async () => {
  expect(500, '[r.should.fail] expected status member 401').toBe(401);
});
test('429 carries Retry-After (warns)', meta('r.should.warning', 'should'), async () => {
  test.info().annotations.push({ type: 'warning', description: '[r.should.warning] Retry-After missing' });
});
test('expired JWT → 401 (skipped)', meta('r.skip', 'must'), async () => {
  test.skip(true, 'profile lacks jwt: no signing material to mint an expired token');
});
test('order of checks (observed)', meta('r.info', 'info'), async () => {
  test.info().annotations.push({ type: 'observation', description: 'route → method → credentials → role' });
});
test('a rule the catalogue does not declare', meta('r.undeclared', 'should'), async () => {});
test('a helper test pointing at no rule', async () => {});
`;

const CATALOGUE = [
  rule('r.must.pass', 'MUST', [403]),
  rule('r.must.fail', 'MUST', [401]),
  rule('r.should.fail', 'SHOULD', [401, 403]),
  rule('r.should.warning', 'SHOULD', [429]),
  rule('r.skip', 'MUST', [401]),
  rule('r.info', 'INFO', [400, 401, 403, 404, 405]),
  rule('r.notrun', 'MUST', [404]),
];

function byId(report: ConformanceReport): Record<string, RuleReport> {
  return Object.fromEntries(report.rules.map((r) => [r.id, r]));
}

test.describe('rule verdicts from a synthetic run', () => {
  let project: SyntheticProject;
  test.beforeAll(async () => {
    project = await createProject({ catalogue: CATALOGUE, files: { 'cases.spec.ts': SPEC } });
  });
  test.afterAll(async () => project.dispose());

  test('non-strict: MUST failure fails, SHOULD failure and warning warn, skip and not-run keep their reasons', async () => {
    const run = await project.run();
    expect(run.code, run.stdout + run.stderr).not.toBe(0);
    const report = await project.report();
    expect(schemaErrors(report)).toEqual([]);
    const rules = byId(report);

    expect(rules['r.must.pass']?.verdict).toBe('pass');
    expect(rules['r.must.pass']?.tests).toHaveLength(2);

    const failed = rules['r.must.fail'];
    expect(failed?.verdict).toBe('fail');
    expect(failed?.reason).toBe('expected status 401, got status 200');
    expect(failed?.evidence).toHaveLength(1);
    expect(failed?.evidence[0]?.response?.status).toBe(200);
    expect(failed?.tests.map((t) => t.outcome).sort()).toEqual(['failed', 'passed']);
    expect(failed?.tests.find((t) => t.outcome === 'failed')?.title).toBe(
      'missing credentials › GET protected path with a bad token → 401 (fails)',
    );

    expect(rules['r.should.fail']?.verdict).toBe('warn');
    expect(rules['r.should.fail']?.reason).toContain('[r.should.fail] expected status member 401');
    expect(rules['r.should.warning']?.verdict).toBe('warn');
    expect(rules['r.should.warning']?.reason).toBe('[r.should.warning] Retry-After missing');

    expect(rules['r.skip']).toMatchObject({
      verdict: 'skip',
      reason: 'profile lacks jwt: no signing material to mint an expired token',
    });
    expect(rules['r.info']).toMatchObject({
      verdict: 'pass',
      observations: ['route → method → credentials → role'],
    });
    expect(rules['r.notrun']).toMatchObject({ verdict: 'not-run', tests: [] });
    expect(rules['r.notrun']?.reason).toContain('no test');
    expect(rules['r.undeclared']).toMatchObject({ verdict: 'pass', inCatalogue: false, level: 'SHOULD' });

    // Catalogue order first, undeclared ids after.
    expect(report.rules.map((r) => r.id)).toEqual([...CATALOGUE.map((r) => r.id), 'r.undeclared']);
    expect(report.unattributed).toEqual([expect.objectContaining({ outcome: 'passed' })]);

    expect(report.conformance).toEqual({
      conformant: false,
      outcome: 'not-conformant',
      level: null,
      complete: false,
      statement: 'Not conformant: 1 MUST rule fails',
      failing: ['r.must.fail'],
    });
    expect(report.counts.MUST).toEqual({
      pass: 1,
      fail: 1,
      warn: 0,
      skip: 1,
      'not-run': 1,
      'not-applicable': 0,
      total: 4,
    });
    expect(report.counts.SHOULD).toEqual({
      pass: 1,
      fail: 0,
      warn: 2,
      skip: 0,
      'not-run': 0,
      'not-applicable': 0,
      total: 3,
    });
    expect(report.catalogue).toEqual({ version: 'test-1', rules: CATALOGUE.length });
    expect(report.run).toMatchObject({
      strict: false,
      shard: null,
      merged: false,
      status: 'failed',
      errors: [],
    });

    for (const file of ['conformance.json', 'conformance.html', 'summary.md', 'conformance.schema.json']) {
      expect(existsSync(path.join(project.reportDir, file)), file).toBe(true);
    }
    expect(run.stdout).toContain('Not conformant: 1 MUST rule fails');
    expect(run.stdout).toContain('r.must.fail [MUST]');
  });

  test('strict: SHOULD failures and warnings fail too', async () => {
    await project.run([], { GATECHECK_STRICT: '1' });
    const report = await project.report();
    expect(schemaErrors(report)).toEqual([]);
    const rules = byId(report);
    expect(rules['r.should.fail']?.verdict).toBe('fail');
    expect(rules['r.should.warning']?.verdict).toBe('fail');
    expect(rules['r.info']?.verdict).toBe('pass');
    expect(report.run.strict).toBe(true);
    expect(report.conformance.failing).toEqual(['r.must.fail', 'r.should.fail', 'r.should.warning']);
    expect(report.conformance.statement).toBe('Not conformant: 1 MUST rule fails; 2 SHOULD rules fail');
  });
});

test('a run whose every checked rule passes is conformant, and says what it did not check', async () => {
  const project = await createProject({
    catalogue: [
      rule('a.must', 'MUST'),
      rule('b.should', 'SHOULD'),
      rule('c.must', 'MUST'),
      rule('d.must', 'MUST'),
    ],
    files: {
      'ok.spec.ts': `
import { test } from '@playwright/test';
test('a', { tag: ['@must', '@rule:a.must'] }, async () => {});
test('b', { tag: ['@should', '@rule:b.should'] }, async () => {});
test('c', { tag: ['@must', '@rule:c.must'] }, async () => { test.skip(true, 'profile lacks rateLimit'); });
test('d', { tag: ['@must', '@rule:d.must'] }, async () => {});
`,
    },
  });
  try {
    const run = await project.run(['--grep-invert', '@rule:d\\.must(?=\\s|$)'], {
      GATECHECK_FILTER: '--skip d.must',
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = await project.report();
    expect(schemaErrors(report)).toEqual([]);
    expect(report.conformance).toEqual({
      conformant: true,
      outcome: 'partial',
      level: 'MUST and SHOULD',
      complete: false,
      statement: 'Partial: no rule fails, but 2 of 3 MUST rules were not checked (1 skipped, 1 not run)',
      failing: [],
    });
    expect(report.rules.find((r) => r.id === 'd.must')).toMatchObject({
      verdict: 'not-run',
      reason: 'not selected in this run (--skip d.must)',
    });
    expect(report.run.filter).toBe('--skip d.must');

    // GATECHECK_MAX_SKIPPED_MUST (the CLI's --max-skipped-must) turns too little coverage into a failure, and
    // a value that cannot be read fails the run rather than being ignored.
    const skip = ['--grep-invert', '@rule:d\\.must(?=\\s|$)'];
    await project.run(skip, { GATECHECK_MAX_SKIPPED_MUST: '1' });
    expect((await project.report()).conformance).toMatchObject({
      conformant: false,
      outcome: 'not-conformant',
      statement:
        'Not conformant: 2 of 3 MUST rules not checked (1 skipped, 1 not run), more than --max-skipped-must 1 allows',
    });
    await project.run(skip, { GATECHECK_MAX_SKIPPED_MUST: 'two' });
    const unreadable = await project.report();
    expect(unreadable.conformance.conformant).toBe(false);
    expect(unreadable.run.errors).toEqual(['GATECHECK_MAX_SKIPPED_MUST must be an integer ≥ 0, got "two"']);
  } finally {
    await project.dispose();
  }
});

test('a run with no test at all is not conformant: nothing was checked', async () => {
  const project = await createProject({
    catalogue: [rule('a.must', 'MUST')],
    files: {
      'none.spec.ts': `import { test } from '@playwright/test';\ntest('x', { tag: ['@rule:a.must'] }, async () => {});\n`,
    },
  });
  try {
    await project.run(['--grep', 'no-such-test', '--pass-with-no-tests']);
    const report = await project.report();
    expect(report.conformance.conformant).toBe(false);
    expect(report.conformance.statement).toBe('Not conformant: no rule was checked');
  } finally {
    await project.dispose();
  }
});

test('a test that fails to load makes the run incomplete, hence not conformant', async () => {
  const project = await createProject({
    catalogue: [rule('a.must', 'MUST')],
    files: {
      'ok.spec.ts': `import { test } from '@playwright/test';\ntest('a', { tag: ['@rule:a.must'] }, async () => {});\n`,
      'broken.spec.ts': `import { test } from '@playwright/test';\nthrow new Error('cannot load this file');\n`,
    },
  });
  try {
    const run = await project.run();
    expect(run.code).not.toBe(0);
    const report = await project.report();
    expect(schemaErrors(report)).toEqual([]);
    expect(report.conformance.conformant).toBe(false);
    expect(report.run.errors.join('\n')).toContain('cannot load this file');
  } finally {
    await project.dispose();
  }
});
