/**
 * The renderers on built reports: what a target sends back (bodies, header values, reasons) is data, never
 * markup, in the HTML page and in summary.md; references only become links when they are http(s).
 */

import { expect, test } from '@playwright/test';
import { renderHtml } from '../../specs/report/html.ts';
import { renderMarkdown } from '../../specs/report/markdown.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { renderText, useColor } from '../../specs/report/text.ts';
import { sampleReport } from './sample-report.ts';

function hostile(): ConformanceReport {
  const report = sampleReport(false);
  return {
    ...report,
    rules: report.rules.map((rule) =>
      rule.id === 'authz.403.lacking-role'
        ? {
            ...rule,
            reason: 'expected 403 | got <b>200</b>\nsecond line',
            refs: [
              { spec: 'evil', section: '§1', url: 'javascript:alert(1)' },
              { spec: 'seed', section: '§7', url: 'docs/spec.md#7-errors' },
              {
                spec: 'RFC 9110',
                section: '§15.5.4',
                url: 'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.4',
              },
            ],
          }
        : rule,
    ),
  };
}

test('HTML: response bodies and reasons are escaped; only http(s) references are links', () => {
  const html = renderHtml(hostile());
  expect(html).not.toContain('<script>alert(1)</script>');
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).not.toContain('<b>200</b>');
  expect(html).not.toContain('href="javascript:');
  expect(html).not.toContain('href="docs/spec.md');
  expect(html).toContain(
    '<a href="https://www.rfc-editor.org/rfc/rfc9110#section-15.5.4">RFC 9110 §15.5.4</a>',
  );
  // Self-contained: no script, nothing fetched.
  expect(html).not.toMatch(/<script|<link|src=/i);
  expect(html).toContain("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\"");
});

test('summary.md: table cells cannot break the table or inject HTML', () => {
  const md = renderMarkdown(hostile());
  const row = md.split('\n').find((l) => l.startsWith('| `authz.403.lacking-role`'));
  expect(row).toContain('expected 403 \\| got &lt;b&gt;200&lt;/b&gt; second line');
  expect(row).not.toContain('javascript:');
  expect(row).toContain('seed §7');
  expect(md).toContain('## gatecheck: ❌ Not conformant: 1 MUST rule fails');
  expect(md).toMatch(/<summary>Skipped \(1\)<\/summary>/);
  expect(md).toMatch(/<summary>Not run \(1\)<\/summary>/);
});

test('terminal summary: verdict, counts per level, unchecked rules by reason, failing ids with why, report path', () => {
  const text = renderText(sampleReport(false), 'reports', { junitFile: 'reports/junit.xml' });
  expect(text.split('\n')).toEqual([
    'gatecheck 0.0.0-test · catalogue sample-1 · target http://127.0.0.1:8080 · profile "sample target"',
    '✘ Not conformant: 1 MUST rule fails',
    'Judged as: Bearer (opaque) · read-only · admin role · no limit declared',
    '  MUST   3 pass · 1 fail · 0 warn · 1 skip · 1 not run · 0 not applicable',
    '  SHOULD 1 pass · 0 fail · 1 warn · 0 skip · 0 not run · 0 not applicable',
    '  INFO   1 pass · 0 fail · 0 warn · 0 skip · 0 not run · 0 not applicable',
    'Not checked, by reason:',
    '  no test in this suite version checks this rule yet — 1 rule, 1 MUST:',
    '    method.405.allow',
    '  profile lacks rateLimit: the limit is not declared — 1 rule, 1 MUST:',
    '    ratelimit.429.exceeded',
    'Failing rules, worst impact first:',
    // A 403 rule answered 200: access granted, whatever the rule's own impact (specs/report/findings.ts).
    ' access granted without valid credentials:',
    '  ✘ authz.403.lacking-role [MUST] — expected status 403 or 404 for the user identity with Bearer, got status 200',
    '      fix: authz.403.lacking-role remedy',
    'Warnings:',
    ' wrong status semantics:',
    '  ! bearer.challenge.missing-no-error [SHOULD] — [bearer.challenge.missing-no-error] expected no error code; got error="invalid_token"',
    '      fix: bearer.challenge.missing-no-error remedy',
    'Report: reports/conformance.html (also conformance.json, summary.md, junit.xml)',
    '',
  ]);
});

test('terminal summary: a partial run has its own mark and colour; JUnit elsewhere is named', () => {
  const partial = renderText(sampleReport(true), 'reports', {
    junitFile: '/elsewhere/junit.xml',
    color: true,
  });
  const lines = partial.split('\n');
  expect(lines[1]).toBe(
    '\x1b[33m◐ Partial: no rule fails, but 2 of 6 MUST rules were not checked (1 skipped, 1 not run); 1 SHOULD warning\x1b[0m',
  );
  expect(lines).toContain(
    'Report: reports/conformance.html (also conformance.json, summary.md); JUnit: /elsewhere/junit.xml',
  );
  expect(renderText(sampleReport(false), 'reports', { color: true }).split('\n')[1]).toBe(
    '\x1b[31m✘ Not conformant: 1 MUST rule fails\x1b[0m',
  );
  expect(renderMarkdown(sampleReport(true))).toMatch(/^## gatecheck: ⚠️ Partial: no rule fails/);
});

test('colour follows the terminal, NO_COLOR and FORCE_COLOR', () => {
  expect(useColor({ isTTY: true }, {})).toBe(true);
  expect(useColor({ isTTY: false }, {})).toBe(false);
  expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
  expect(useColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
  expect(useColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
});

test('a conformant report with a SHOULD warning claims the MUST level only', () => {
  const report = sampleReport(true);
  expect(report.conformance).toMatchObject({
    conformant: true,
    outcome: 'partial',
    level: 'MUST',
    complete: false,
    statement:
      'Partial: no rule fails, but 2 of 6 MUST rules were not checked (1 skipped, 1 not run); 1 SHOULD warning',
  });
});

test('the cost of politeness shows in the console summary, summary.md and the HTML page — each pace with its counter, and the key — and only when measured', () => {
  const base = sampleReport(true);
  const report: ConformanceReport = {
    ...base,
    run: {
      ...base.run,
      politeness: {
        requests: 4290,
        limitedAnswers: 3,
        waitedMs: 4500,
        slowestWaitMs: 2100,
        elapsedMs: 4400,
        pacePerSecond: 18,
        reasons: { '429': 2, '403 with Retry-After': 1 },
        counters: [
          {
            counter: 'endpoint /protected',
            requests: 3100,
            limited: 3,
            pacePerSecond: 54,
            declaredPerSecond: 54,
          },
          {
            counter: 'identity ratelimit',
            requests: 31,
            limited: 0,
            pacePerSecond: 18,
            declaredPerSecond: 18,
          },
        ],
        key: {
          declared: 'identity',
          inForce: ['identity', 'endpoint'],
          learned: [{ key: 'endpoint', at: 0, counter: 'endpoint /protected', requests: 70, spanMs: 1000 }],
          summary:
            'declared key identity; the target limits per route (limited after 70 requests of endpoint /protected within 1 s) — add `key: "endpoint"` to rateLimit',
        },
      },
    },
  };
  // #31 item 5: "paced at 18 requests/s" while 4,290 requests went out in 4.4 s was one counter's pace, unnamed.
  const line =
    /4,290 requests sent in 4\.4 s · 3 limited answers met \(2 × 429, 1 × 403 with Retry-After\) · 4\.5 s waiting, slowest wait 2\.1 s · paced per counter, longest at its pace first: endpoint \/protected 54 requests\/s \(3,100 requests, ≈ 57 s\), identity ratelimit 18 requests\/s \(31 requests, ≈ 2 s\); any other request unpaced · declared key identity; the target limits per route .* add .key: (?:"|&quot;)endpoint(?:"|&quot;). to rateLimit/;
  expect(renderText(report, 'reports')).toMatch(line);
  expect(renderMarkdown(report)).toMatch(line);
  expect(renderHtml(report)).toMatch(line);
  // The counter that decided the wall is named first, however few its requests: 146 at 1.85/s outlast 3,100 at 54/s.
  const slow = {
    counter: 'credential ',
    requests: 146,
    limited: 0,
    pacePerSecond: 1.85,
    declaredPerSecond: 1.85,
  };
  const politeness = report.run.politeness as NonNullable<typeof report.run.politeness>;
  const decided = {
    ...report,
    run: { ...report.run, politeness: { ...politeness, counters: [...(politeness.counters ?? []), slow] } },
  };
  expect(renderText(decided, 'reports')).toMatch(
    /paced per counter, longest at its pace first: requests without a credential \(per address\) 1\.85 requests\/s \(146 requests, ≈ 79 s\), endpoint \/protected 54 requests\/s/,
  );
  const { politeness: _, ...withoutRun } = report.run;
  expect(renderText({ ...report, run: withoutRun }, 'reports')).not.toContain('Politeness');
  // A report written before the counters were kept: its one pace says it is one counter's.
  const older = {
    ...report,
    run: {
      ...report.run,
      politeness: {
        requests: 10,
        limitedAnswers: 0,
        waitedMs: 0,
        slowestWaitMs: 0,
        pacePerSecond: 18,
        reasons: {},
      },
    },
  };
  expect(renderText(older, 'reports')).toMatch(/slowest pace 18 requests\/s \(one counter's\)/);
});
