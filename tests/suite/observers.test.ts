/**
 * The default run (every check, the fuzz phase and the observer verdicts) against the mock with one of the
 * defects the observer and RFC 9110 §9 rules are proven by: each fails exactly its new rule and nothing else; the conformant mock
 * fails nothing and skips none of the new rules. The observer failure names its rule, the first offending
 * request and how many responses showed it, in the message, the evidence and the HTML report.
 */
import { expect, test } from '@playwright/test';
import type { DefectName } from '../../mock/defects/registry.ts';
import { ruleById } from '../../specs/rules/catalogue.ts';
import { startDefectiveMock } from '../helpers/defect-mock.ts';
import { type JsonSpec, MOCK_PROFILE, runSuite, type SuiteRun, specsOf } from '../helpers/run-suite.ts';

// Each run is a whole conformance run; a small fuzz budget keeps it to a minute without changing what runs.
test.describe.configure({ timeout: 600_000 });

const NEW_RULES = [
  'observed.401.challenge',
  'observed.bearer.error-code',
  'observed.405.allow',
  'observed.429.retry-after',
  'observed.problem.status',
  'observed.no-stack',
  'observed.no-credential-echo',
  'method.405.allow-complete',
  'method.head',
  'basic.base64.strict',
];

/** `strict`: SHOULD rules fail the run (GATECHECK_STRICT), for a defect only a SHOULD rule catches. */
async function defaultRun(defects: readonly DefectName[], keep = false, strict = false): Promise<SuiteRun> {
  const target = await startDefectiveMock(defects);
  try {
    return await runSuite({
      env: {
        BASE_URL: target.url,
        GATECHECK_PROFILE: MOCK_PROFILE,
        GATECHECK_BUDGET: '400',
        ...(strict ? { GATECHECK_STRICT: '1' } : {}),
      },
      reporters: keep ? 'project' : 'json',
      keep,
      timeoutMs: 540_000,
    });
  } finally {
    await target.close();
  }
}

const ruleOf = (spec: JsonSpec) =>
  spec.tags.map((t) => /^@?rule:(.+)$/.exec(t)?.[1]).find((id) => id !== undefined) ?? spec.title;

function failingRules(run: SuiteRun): string[] {
  const out = new Set<string>();
  for (const spec of run.specs) if (spec.tests.some((t) => t.status === 'unexpected')) out.add(ruleOf(spec));
  return [...out].sort();
}

function messages(spec: JsonSpec | undefined): string {
  return (spec?.tests ?? [])
    .flatMap((t) => t.results.flatMap((r) => r.errors.map((e) => e.message ?? '')))
    .join('\n');
}

for (const [defect, rules] of [
  ['allow-omits-method', ['method.405.allow-complete']],
  // HEAD refused with 405 where the GET gets 401 is not "identical to GET" either (its stated collateral).
  ['head-405', ['method.head', 'method.head.refused']],
  ['basic-lenient-base64', ['basic.base64.strict']],
  // A stack in a 400 is judged at RFC 9457 §5's level (SHOULD) by the observer, not by the MUST body rules.
  ['stack-trace-in-400', ['observed.no-stack']],
] as const) {
  test(`the default run against the mock with ${defect} fails ${rules.join(' and ')} and nothing else`, async () => {
    const run = await defaultRun(
      [defect],
      false,
      rules.some((rule) => ruleById(rule).level === 'SHOULD'),
    );
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    expect(failingRules(run)).toEqual([...rules]);
  });
}

test('a Basic challenge without realm only on failed credentials fails observed.401.challenge alone, with the first offending request, the count and the rule in message, evidence and HTML', async () => {
  const run = await defaultRun(['basic-challenge-bare-on-failure'], true);
  try {
    expect(run.code, run.stderr.slice(-2000)).toBe(1);
    expect(failingRules(run)).toEqual(['observed.401.challenge']);
    const [spec] = specsOf(run, 'observed.401.challenge');
    const message = messages(spec);
    expect(message).toContain('[observed.401.challenge] MUST');
    expect(message).toMatch(
      /first: {4}(GET|POST|PUT|DELETE) http:\/\/127\.0\.0\.1:\d+\/\S* \(of \d+ of \d+ 401 answers\)/,
    );
    expect(message).toContain('expected: Basic with a realm parameter');
    const evidence = spec?.tests[0]?.results[0]?.attachments.find((a) => a.name === 'evidence.json');
    const parsed = JSON.parse(Buffer.from(evidence?.body ?? '', 'base64').toString('utf8'));
    expect(parsed).toMatchObject({ rule: 'observed.401.challenge', response: { status: 401 } });
    expect(parsed.actual).toMatch(/on \d+ of \d+ 401 answers; first: /);
    // The credential of the first offending request is redacted wherever it appears.
    expect(JSON.stringify(parsed)).not.toContain('d29uZGVybGFuZC1hZG1pbg');
    const html = [...run.reportFiles()].find(([path]) => path.endsWith('conformance.html'))?.[1] ?? '';
    expect(html).toContain('observed.401.challenge');
    expect(html).toMatch(/of \d+ 401 answers/);
  } finally {
    run.dispose();
  }
});

test('against the conformant mock the default run fails nothing, and none of the new rules is skipped', async () => {
  const run = await defaultRun([]);
  expect(run.code, run.stderr.slice(-2000)).toBe(0);
  expect(failingRules(run)).toEqual([]);
  for (const rule of NEW_RULES) {
    const specs = specsOf(run, rule);
    expect(specs.length, rule).toBeGreaterThan(0);
    for (const spec of specs)
      expect(spec.tests[0]?.status === 'skipped' ? `${rule} skipped` : 'ran').toBe('ran');
  }
});
