/**
 * Issue #41's transcript, end to end with the real bin, the real suite and the mock with defect modes
 * (docs/defects.md): two defects → exit 1; a waiver for one and a baseline holding the other → exit 0, both
 * still failures, visible as waived and known (and the signed statement of that run verifies and is not
 * "conformant"); a third defect → exit 1 naming only it; the waiver past its date → exit 1; the defects off →
 * the waiver stale, the baseline's failure fixed. docs/ci.md walks through the same steps.
 *
 * The runs are bounded to the three write rules the defects break (success.200.post / put / delete) and one
 * that passes throughout; today is injected (GATECHECK_TODAY) so the waiver's date is tested, not the clock.
 */

import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import type { DefectName } from '../../mock/defects/registry.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { type Scratch, scratch } from '../cli/cli.ts';
import { runGateAgainst } from './defect-run.ts';

test.describe.configure({ mode: 'serial', timeout: 900_000 });

const ONLY = 'success.200.public,success.200.post,success.200.put,success.200.delete';
const TODAY = '2026-11-27';
const WAIVERS = {
  waivers: [
    {
      rule: 'success.200.post',
      reason: 'POST answers 201 Created; 200 ships with release 4.2',
      until: '2026-12-31',
      ticket: 'API-1234',
    },
  ],
};

let s: Scratch;
test.beforeAll(async () => {
  s = await scratch();
  await writeFile(path.join(s.dir, 'waivers.json'), JSON.stringify(WAIVERS, null, 2));
});
test.afterAll(async () => s?.dispose());

/** One run of this transcript (tests/gate/defect-run.ts). */
function runAgainst(
  defects: readonly DefectName[],
  reportDir: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) {
  return runGateAgainst(s, { only: ONLY, today: TODAY }, defects, reportDir, extra, env);
}

const verdictOf = (report: ConformanceReport, id: string) => report.rules.find((r) => r.id === id);
const GATE = ['--waivers', 'waivers.json', '--baseline', 'baseline/conformance.json'];

test('1. two defects on, no gate: exit 1 naming both', async () => {
  const { run, report, out } = await runAgainst(['post-201', 'put-204'], 'first');
  expect(run.code, out).toBe(EXIT.nonConformant);
  expect(report.conformance.failing).toEqual(['success.200.post', 'success.200.put']);
  expect(report.gate).toBeUndefined();
  expect(run.stdout).toContain('gatecheck: exit 1 (not conformant)');
});

test('2. a waiver for one, a baseline holding the other: exit 0, both still failures, shown waived and known', async () => {
  // The baseline: the last release's run, when only the PUT defect was there.
  const base = await runAgainst(['put-204'], 'baseline');
  expect(base.run.code, base.out).toBe(EXIT.nonConformant);

  const pair = generateKeyPairSync('ed25519');
  await writeFile(
    path.join(s.dir, 'vendor.pub'),
    String(pair.publicKey.export({ format: 'pem', type: 'spki' })),
  );
  const summaryFile = path.join(s.dir, 'step-summary.md');
  const { run, report, out } = await runAgainst(
    ['post-201', 'put-204'],
    'gated',
    [...GATE, '--sign-key', 'env:GATECHECK_TEST_SIGNING_KEY'],
    {
      GATECHECK_TEST_SIGNING_KEY: String(pair.privateKey.export({ format: 'pem', type: 'pkcs8' })),
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summaryFile,
    },
  );
  expect(run.code, out).toBe(EXIT.conformant);
  // The verdict is not the exit code: both printed.
  const verdict = 'Not conformant: 2 MUST rules fail (1 waived, 1 known from the baseline)';
  expect(report.conformance).toMatchObject({ conformant: false, statement: verdict });
  expect(run.stdout).toContain(`gatecheck: verdict: ${verdict}\n`);
  expect(run.stdout).toContain(
    'gatecheck: exit 0 (Gate passed: 2 failing rules accepted (1 waived, 1 known from the baseline); 1 worse than the baseline, waived)',
  );
  expect(run.stdout).toMatch(
    /✘ success\.200\.post \[MUST\] \(waived until 2026-12-31, worse than the baseline\) — expected status 200, got status 201/,
  );
  expect(run.stdout).toMatch(
    /✘ success\.200\.put \[MUST\] \(known from the baseline\) — expected status 200, got status 204/,
  );
  // The failures stay failures, evidence and replay line whole.
  const post = verdictOf(report, 'success.200.post');
  expect(post).toMatchObject({ verdict: 'fail', waiver: { until: '2026-12-31', ticket: 'API-1234' } });
  expect(post?.evidence[0]?.replay).toMatch(/^curl .*-X POST /);
  expect(verdictOf(report, 'success.200.put')).toMatchObject({
    verdict: 'fail',
    baseline: { change: 'known', was: 'fail' },
  });
  expect(report.gate?.counts).toMatchObject({ failing: 2, waived: 1, known: 1, unaccepted: 0 });
  // GitHub Actions: an annotation per failing rule, accepted ones as warnings that say why.
  expect(run.stdout).toContain(
    '::warning title=success.200.post::MUST rule success.200.post fails (accepted by the gate: waived until 2026-12-31: ',
  );
  expect(run.stdout).toContain(
    '::warning title=success.200.put::MUST rule success.200.put fails (accepted by the gate: known: failing in the baseline too)',
  );
  expect(run.stdout).not.toContain('::error');
  // The job summary: the gate, the diff, the waivers with their date, the failures with their replay lines.
  const summary = await readFile(summaryFile, 'utf8');
  expect(summary).toContain(`## gatecheck: ❌ ${verdict}`);
  expect(summary).toContain('### Gate: ✅ Gate passed');
  expect(summary).toContain('known, still failing (1): success.200.put');
  expect(summary).toMatch(/\| applied \| `success\.200\.post` \| every endpoint \| 2026-12-31 \|/);
  expect(summary).toMatch(/replay: curl .*-X PUT /);
  // JUnit and the HTML carry them as failures.
  const junit = await readFile(path.join(s.dir, 'gated/junit.xml'), 'utf8');
  // Playwright's JUnit reporter writes a thrown RuleViolation as an <error> of its test case: both are there.
  expect(junit).toMatch(/<testsuites [^>]*errors="2"/);
  expect(junit).toContain('<error message="[success.200.post] MUST: ');
  expect(junit).toContain('<error message="[success.200.put] MUST: ');
  const html = await readFile(path.join(s.dir, 'gated/conformance.html'), 'utf8');
  expect(html).toContain('data-conformant="false"');
  expect(html).toContain('<section id="gate" data-gate-passed="true">');
  expect(html).toContain('data-waived="true"');

  // The signed statement of this run verifies, and its verdict is the honest one.
  const verify = await s.gatecheck(['verify', 'gated/conformance.intoto.jsonl', '--key', 'vendor.pub']);
  expect(verify.code, verify.stdout + verify.stderr).toBe(EXIT.conformant);
  expect(verify.stdout).toContain(`attests: ${verdict}`);
  const envelope = JSON.parse(await readFile(path.join(s.dir, 'gated/conformance.intoto.jsonl'), 'utf8'));
  const predicate = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')).predicate;
  expect(predicate.verdict).toMatchObject({
    outcome: 'not-conformant',
    conformant: false,
    statement: verdict,
  });
});

test('3. a third defect on: exit 1 naming only it', async () => {
  const { run, report, out } = await runAgainst(['post-201', 'put-204', 'delete-204'], 'third', GATE, {
    GITHUB_ACTIONS: 'true',
  });
  expect(run.code, out).toBe(EXIT.nonConformant);
  expect(report.gate?.blocking).toEqual(['success.200.delete: pass in the baseline, fails now']);
  expect(run.stdout).toContain(
    'gatecheck: exit 1 (Gate failed: success.200.delete: pass in the baseline, fails now)',
  );
  const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
  expect(errors).toHaveLength(1);
  // The one ::error is the gate's one reason (issue #67: annotations say what the gate says).
  expect(errors[0]).toMatch(
    /^::error title=success\.200\.delete::Gate failed: success\.200\.delete: pass in the baseline, fails now%0Areplay: curl /,
  );
});

test('4. the waiver past its date: exit 1 with its reason', async () => {
  const { run, report, out } = await runAgainst(['post-201', 'put-204'], 'expired', GATE, {
    GATECHECK_TODAY: '2027-01-01',
  });
  expect(run.code, out).toBe(EXIT.nonConformant);
  const line =
    'waiver for success.200.post expired on 2026-12-31: POST answers 201 Created; 200 ships with release 4.2';
  expect(report.gate?.blocking).toEqual([line]);
  expect(run.stdout).toContain(`gatecheck: exit 1 (Gate failed: ${line})`);
  expect(report.waivers?.entries[0]?.state).toBe('expired');
});

test('5. the defects off: the waiver reported stale, the baseline failure fixed; --strict-waivers fails on the stale waiver', async () => {
  const { run, report, out } = await runAgainst([], 'clean', GATE);
  expect(run.code, out).toBe(EXIT.conformant);
  expect(report.waivers?.entries[0]).toMatchObject({
    rule: 'success.200.post',
    state: 'stale',
    note: 'the rule passes now: remove the waiver',
  });
  expect(report.baseline?.fixed).toEqual(['success.200.put']);
  expect(run.stdout).toContain('fixed, passing now (1): success.200.put');
  expect(run.stdout).toMatch(
    /stale {3}success\.200\.post until 2026-12-31 \[API-1234\]: .* — the rule passes now: remove the waiver/,
  );

  const strict = await runAgainst([], 'clean-strict', [...GATE, '--strict-waivers']);
  expect(strict.run.code, strict.out).toBe(EXIT.nonConformant);
  expect(strict.run.stdout).toContain(
    'gatecheck: exit 1 (Gate failed: waiver for success.200.post is stale (--strict-waivers): the rule passes now: remove the waiver)',
  );
});
