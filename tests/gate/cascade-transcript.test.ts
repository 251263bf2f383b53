/**
 * Issue #67's adoption transcript, end to end with the real bin, the suite and the mock's defects: a baseline
 * holding one defect (no Allow on 405), then a second defect (403 for missing credentials) waived by the pattern
 * of the rules it fails (`auth.401.*`). The rules that second defect stops (its 401 never came) are filed under
 * its finding — not "worse" than the baseline, not a coverage gap — so the gate passes with no `::error`; a third
 * defect fails it with one `::error` naming it; the waiver past its date fails it with an `::error` naming the
 * waiver; the defects off, the waiver is stale and the baseline entries fixed. Today is injected.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXIT } from '../../cli/exit-codes.ts';
import type { DefectName } from '../../mock/defects/registry.ts';
import { type Scratch, scratch } from '../cli/cli.ts';
import { runGateAgainst } from './defect-run.ts';

test.describe.configure({ mode: 'serial', timeout: 900_000 });

const ONLY = [
  'auth.401.*',
  'auth.challenge.*',
  'basic.challenge.*',
  'bearer.challenge.missing-no-error',
  'method.405.*',
  'observed.401.challenge',
  'observed.405.allow',
].join(',');
const TODAY = '2026-11-27';
const STOPPED = [
  'auth.401.then-valid',
  'auth.401.challenge-per-scheme',
  'auth.challenge.realm-quoted',
  'basic.challenge.realm',
  'basic.challenge.charset',
  'bearer.challenge.missing-no-error',
];

let s: Scratch;
test.beforeAll(async () => {
  s = await scratch();
  const waivers = {
    waivers: [
      {
        rule: 'auth.401.*',
        reason: 'missing credentials answer 403 until the auth middleware moves (4.3)',
        until: '2026-12-31',
        ticket: 'API-77',
      },
    ],
  };
  await writeFile(path.join(s.dir, 'waivers.json'), JSON.stringify(waivers, null, 2));
});
test.afterAll(async () => s?.dispose());

/** One run of this transcript (tests/gate/defect-run.ts). */
function runAgainst(
  defects: readonly DefectName[],
  reportDir: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) {
  return runGateAgainst(s, { only: ONLY, today: TODAY }, defects, reportDir, extra, {
    GITHUB_ACTIONS: 'true',
    ...env,
  });
}

const GATE = ['--waivers', 'waivers.json', '--baseline', 'baseline/conformance.json'];
const errorsOf = (annotations: readonly string[]) => annotations.filter((a) => a.startsWith('::error'));

test('1. the baseline: no Allow on 405 — the rules it stops are filed under it', async () => {
  const { run, report, out } = await runAgainst(['method-no-allow'], 'baseline');
  expect(run.code, out).toBe(EXIT.nonConformant);
  expect(report.conformance.failing).toEqual(['method.405.allow', 'observed.405.allow']);
  expect(report.findings?.find((f) => f.rule === 'method.405.allow')?.consequences).toEqual([
    'method.405.allow-excludes',
    'method.405.allow-complete',
  ]);
});

test('2. a second defect waived by the pattern of the rules it fails: exit 0, no ::error, what it stops is not "worse"', async () => {
  const { run, report, out, annotations } = await runAgainst(
    ['method-no-allow', 'missing-credentials-403'],
    'waived',
    GATE,
  );
  expect(run.code, out).toBe(EXIT.conformant);
  expect(report.conformance.failing).toEqual(['auth.401.missing', 'method.405.allow', 'observed.405.allow']);
  for (const id of STOPPED) {
    const rule = report.rules.find((r) => r.id === id);
    expect(rule, id).toMatchObject({
      verdict: 'skip',
      causedBy: ['auth.401.missing'],
      baseline: { change: 'stopped', was: 'pass' },
    });
  }
  expect(report.findings?.find((f) => f.rule === 'auth.401.missing')?.consequences).toEqual(STOPPED);
  // The cause is worse than the baseline, and waived; what it stops is not "worse" of its own.
  expect(report.baseline?.worse).toEqual(['auth.401.missing: pass in the baseline, fails now']);
  expect(report.waivers?.entries[0]).toMatchObject({
    rule: 'auth.401.*',
    state: 'applied',
    matched: ['auth.401.missing'],
  });
  expect(report.gate).toMatchObject({ passed: true, blocking: [] });
  expect(errorsOf(annotations)).toEqual([]);
  // One warning per accepted failure, saying why it is accepted.
  expect(annotations.filter((a) => a.startsWith('::warning'))).toHaveLength(3);
  expect(annotations.join('\n')).toContain(
    '::warning title=auth.401.missing::MUST rule auth.401.missing fails (accepted by the gate: waived until 2026-12-31',
  );
  expect(run.stdout).toContain('stops: auth.401.then-valid, auth.401.challenge-per-scheme');
  expect(run.stdout).toContain(`matched auth.401.missing`);
});

test('3. a third defect: exit 1 with one ::error naming it', async () => {
  const { run, report, out, annotations } = await runAgainst(
    ['method-no-allow', 'missing-credentials-403', 'basic-challenge-bare-on-failure'],
    'third',
    GATE,
  );
  expect(run.code, out).toBe(EXIT.nonConformant);
  expect(report.gate?.blocking).toEqual(['observed.401.challenge: pass in the baseline, fails now']);
  const errors = errorsOf(annotations);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(
    /^::error title=observed\.401\.challenge::Gate failed: observed\.401\.challenge: pass in the baseline, fails now/,
  );
});

test('4. the waiver past its date: exit 1, an ::error naming the waiver and nothing else', async () => {
  const { run, report, out, annotations } = await runAgainst(
    ['method-no-allow', 'missing-credentials-403'],
    'expired',
    GATE,
    {
      GATECHECK_TODAY: '2027-01-01',
    },
  );
  expect(run.code, out).toBe(EXIT.nonConformant);
  const line =
    'waiver for auth.401.* expired on 2026-12-31: missing credentials answer 403 until the auth middleware moves (4.3)';
  // The expired waiver is the one reason: the failure it no longer covers is not said twice.
  expect(report.gate?.blocking).toEqual([line]);
  const errors = errorsOf(annotations);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`::error title=auth.401.*::Gate failed: ${line}`);
  expect(run.stdout).toContain(`gatecheck: exit 1 (Gate failed: ${line})`);
});

test('5. the defects fixed: the waiver is stale, the baseline entries fixed, the stopped rules run again and pass', async () => {
  const { run, report, out, annotations } = await runAgainst([], 'clean', GATE);
  expect(run.code, out).toBe(EXIT.conformant);
  expect(report.waivers?.entries[0]).toMatchObject({ rule: 'auth.401.*', state: 'stale' });
  expect(report.waivers?.entries[0]?.note).toMatch(
    /^the pattern matched no failing rule \(it names \d+ rules, none fails\): remove it$/,
  );
  expect(report.baseline?.fixed).toEqual(['method.405.allow', 'observed.405.allow']);
  for (const id of [...STOPPED, 'method.405.allow-excludes', 'method.405.allow-complete'])
    expect(report.rules.find((r) => r.id === id)?.verdict, id).toBe('pass');
  expect(errorsOf(annotations)).toEqual([]);
});
