/**
 * Every rendering carries waived and known failures as failures, and the gate beside the verdict: the terminal
 * summary, summary.md (the diff first after the title), the HTML page (its exit code from the gate, the verdict
 * unchanged) and GitHub's workflow-command annotations (escaped, ::error only for what fails the gate).
 */

import { expect, test } from '@playwright/test';
import { githubAnnotations } from '../../specs/report/annotations.ts';
import { renderHtml } from '../../specs/report/html.ts';
import { renderMarkdown } from '../../specs/report/markdown.ts';
import { renderText } from '../../specs/report/text.ts';
import { baselineOf, gatedReport, WAIVE_POST } from './build-gated.ts';

const accepted = () =>
  gatedReport({
    outcomes: { 'success.200.post': 'fail', 'success.200.put': 'fail' },
    waivers: [WAIVE_POST],
    baseline: baselineOf({ 'success.200.put': 'fail', 'success.200.delete': 'fail' }),
  });

test('terminal summary: the verdict, then the diff, the waivers and the gate; failing rules tagged, still under "Failing rules", worst impact first', () => {
  const text = renderText(accepted(), 'reports');
  const lines = text.split('\n');
  expect(lines[1]).toBe('✘ Not conformant: 2 MUST rules fail (1 waived, 1 known from the baseline)');
  expect(lines[2]).toMatch(
    /^Against the baseline baseline\.json \(catalogue 1\.4\.0; run of 2026-11-20T09:00:00\.000Z\):$/,
  );
  expect(text).toContain('  fixed, passing now (1): success.200.delete\n');
  expect(text).toContain(
    '  applied success.200.post until 2026-12-31 [API-1234]: POST answers 201; 200 ships in release 4.2\n',
  );
  expect(text).toContain('✔ Gate passed: 2 failing rules accepted (1 waived, 1 known from the baseline)');
  expect(text).toMatch(
    /Failing rules, worst impact first:\n wrong status semantics:\n {2}✘ success\.200\.post \[MUST\] \(waived until 2026-12-31, worse than the baseline\) — /,
  );
  expect(text).toContain('  ✘ success.200.put [MUST] (known from the baseline) — ');
});

test('summary.md: the gate and the diff come first after the title; the failures stay in "Failing rules" with evidence', () => {
  const md = renderMarkdown(accepted());
  expect(md.indexOf('### Gate: ✅ Gate passed')).toBeGreaterThan(
    md.indexOf('## gatecheck: ❌ Not conformant'),
  );
  expect(md.indexOf('### Gate:')).toBeLessThan(md.indexOf('| level '));
  expect(md).toContain('- known, still failing (1): success.200.put');
  expect(md).toMatch(
    /\| applied \| `success\.200\.post` \| every endpoint \| 2026-12-31 \| POST answers 201; 200 ships in release 4\.2 \| API-1234 \|/,
  );
  expect(md).toContain('### Failing rules (2)');
  expect(md).toContain("replay: curl -i -sS -X POST 'http://127.0.0.1:8080/api/users'");
});

test('HTML: the exit code follows the gate, the verdict stays not conformant, waived rules say so', () => {
  const html = renderHtml(accepted());
  expect(html).toContain('data-conformant="false" data-outcome="not-conformant"');
  expect(html).toContain('· exit code 0 (the gate passed; the verdict above is unchanged by it)');
  expect(html).toContain('<section id="gate" data-gate-passed="true">');
  expect(html).toMatch(
    /<p class="waiver"><strong>Waived<\/strong> until 2026-12-31 \(API-1234\): POST answers 201; 200 ships in release 4\.2 — still a failure/,
  );
  // Without a gate the page is as before: the exit code is the verdict's.
  const plain = renderHtml(gatedReport({ outcomes: { 'success.200.post': 'fail' } }));
  expect(plain).toContain('· exit code 1</p>');
  expect(plain).not.toContain('id="gate"');
});

test('GitHub annotations: ::error for what fails the gate, ::warning for what it accepts; data and title escaped', () => {
  const report = gatedReport({
    outcomes: { 'success.200.post': 'fail', 'success.200.delete': 'fail' },
    waivers: [{ ...WAIVE_POST, reason: '100% known: 201,\nnot 200' }],
  });
  const lines = githubAnnotations(report);
  expect(lines).toHaveLength(2);
  // Errors first: exactly the gate's reasons (issue #67), then a warning per accepted failure.
  expect(lines[0]).toMatch(
    /^::error title=success\.200\.delete::Gate failed: success\.200\.delete fails%0Areplay: /,
  );
  expect(lines[1]).toBe(
    "::warning title=success.200.post::MUST rule success.200.post fails (accepted by the gate: waived until 2026-12-31: 100%25 known: 201,%0Anot 200): expected status 200, got status 201%0Areplay: curl -i -sS -X POST 'http://127.0.0.1:8080/api/users'",
  );
  // No gate: every failure is an error.
  const ungated = githubAnnotations(gatedReport({ outcomes: { 'success.200.post': 'fail' } }));
  expect(ungated).toEqual([expect.stringMatching(/^::error title=success\.200\.post::/)]);
});
