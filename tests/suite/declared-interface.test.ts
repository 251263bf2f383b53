/**
 * Verdicts about the interface the target declares (issue #66), run as a user does: a target whose declaration
 * rules rules out is judged conformant with --max-skipped-must 0, and the rules it rules out are listed as not
 * applicable with the declaration that rules each out — never as skipped.
 * - the reference case: every identity may write (writer "any") and the admin path takes one scheme: exactly
 *   the two rules that declaration rules out;
 * - the same mock declared as a Bearer-only, read-only API (the Express API).
 * A reduced fuzz budget keeps each full run short; coverage does not depend on it.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Policy } from '../../mock/routing/policy.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { bearerReadOnly } from '../helpers/declared-profiles.ts';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import { MOCK_PROFILE, runSuite } from '../helpers/run-suite.ts';

const ANY_WRITER: Policy = JSON.parse(
  readFileSync(new URL('../../fixtures/policy.json', import.meta.url), 'utf8').replaceAll(
    ', "scopes": ["users:write"]',
    '',
  ),
) as Policy;

test.describe.configure({ timeout: 240_000 });

async function fullRun(
  baseUrl: string,
  profile: unknown,
): Promise<{ code: number | null; report: ConformanceReport; out: string }> {
  const run = await runSuite({
    profile,
    reporters: 'project',
    keep: true,
    timeoutMs: 200_000,
    env: { BASE_URL: baseUrl, GATECHECK_MAX_SKIPPED_MUST: '0', GATECHECK_BUDGET: '400' },
  });
  try {
    const report = JSON.parse(
      await readFile(join(run.reportDir, 'conformance.json'), 'utf8'),
    ) as ConformanceReport;
    return { code: run.code, report, out: `${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}` };
  } finally {
    run.dispose();
  }
}

const ruledOut = (report: ConformanceReport) =>
  report.rules.filter((r) => r.verdict === 'not-applicable').map((r) => [r.id, r.reason]);

test.describe('every identity may write, the admin path takes one scheme', () => {
  const mock = mockForTests({ host: '127.0.0.1', policy: ANY_WRITER });
  test('exit 0 with --max-skipped-must 0; the two rules the declaration rules out are not applicable, with why', async () => {
    const profile = JSON.parse(readFileSync(MOCK_PROFILE, 'utf8')) as {
      endpoints: { collection: Record<string, unknown> };
    };
    profile.endpoints.collection.writer = 'any';
    const { code, report, out } = await fullRun(mock.url, profile);
    expect(code, out).toBe(0);
    expect(ruledOut(report)).toEqual([
      [
        'authz.403.lacking-scope',
        'not applicable: every authenticated identity may write (endpoints.collection.writer "any")',
      ],
      [
        'authz.403.reauth-other-scheme',
        'not applicable: no request refused to the user (admin read, or write by another role) takes two schemes',
      ],
    ]);
    expect(report.counts.MUST.skip + report.counts.MUST['not-run']).toBe(0);
    expect(report.conformance.statement).toBe(
      'Conformant at MUST and SHOULD levels; 2 rules not applicable to the declared interface',
    );
    expect(report.target.declaration?.class).toContain('writes (any identity)');
  });
});

test.describe('the mock declared as a Bearer-only, read-only API', () => {
  const mock = mockForTests({ host: '127.0.0.1' });
  test('exit 0 with --max-skipped-must 0; Basic, Apikey, writes, blocking and the fault trigger listed as not applicable', async () => {
    const { code, report, out } = await fullRun(mock.url, bearerReadOnly());
    expect(code, out).toBe(0);
    const ids = ruledOut(report).map(([id]) => id);
    expect(ids).toHaveLength(30);
    expect(ids).toContain('auth.401.invalid-basic');
    expect(ids).toContain('success.200.post');
    expect(report.counts.MUST['not-applicable']).toBe(25);
    expect(report.counts.MUST.skip + report.counts.MUST['not-run']).toBe(0);
    expect(report.target.declaration?.class).toBe(
      'Bearer (JWT RS256) · public read · read-only · admin role · limit 20/1 s per identity',
    );
    expect(out).toContain('Judged as: Bearer (JWT RS256) · public read · read-only');
  });
});
