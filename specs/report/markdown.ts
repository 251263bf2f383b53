/**
 * summary.md: the verdict for a CI job page ($GITHUB_STEP_SUMMARY) or a PR comment. GitHub-flavoured
 * Markdown; every value from the run is escaped so a response body cannot inject markup.
 */

import type { Evidence } from '../lib/evidence.ts';
import { IMPACT_TITLES } from '../rules/types.ts';
import { acceptanceTag, baselineSection } from './gate/lines.ts';
import { markdownTable } from './markdown-table.ts';
import { type ConformanceReport, LEVELS, type RuleReport } from './model.ts';
import { outcomeOf } from './outcome.ts';
import { politenessLine } from './politeness.ts';
import { type StatementNote, verifyCommand } from './statement-note.ts';

/** Table cell text: no pipes, no line breaks, no HTML. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/`/g, "'")
    .replace(/\r?\n/g, ' ');
}

/** A fenced block long enough that no backtick run inside can close it (CommonMark §4.5). */
function fence(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  return `${bar}${info}\n${text}\n${bar}`;
}

/** A link destination that cannot end early (CommonMark §6.3): spaces, parentheses and angle brackets encoded. */
export function href(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function refsOf(rule: RuleReport): string {
  // Relative references (the seed file) would be dead links on a job page: plain text.
  return rule.refs
    .map((r) =>
      /^https?:\/\//i.test(r.url)
        ? `[${cell(`${r.spec} ${r.section}`)}](${href(r.url)})`
        : cell(`${r.spec} ${r.section}`),
    )
    .join(', ');
}

function evidenceBlock(e: Evidence): string {
  const parts = [
    `expected: ${e.expected}`,
    `actual: ${e.actual}`,
    `request: ${e.request.method} ${e.request.url}`,
  ];
  if (e.response) parts.push(`response: ${e.response.status}`);
  if (e.replay) parts.push(`replay: ${e.replay}`);
  return fence(parts.join('\n'), 'text');
}

function ruleTable(rules: readonly RuleReport[], withRefs: boolean): string[] {
  return withRefs
    ? markdownTable(
        ['rule', 'level', 'requirement', 'why', 'refs'],
        rules.map((r) => [
          `\`${r.id}\`${cell(acceptanceTag(r))}`,
          r.level,
          cell(r.requirement),
          cell(r.reason ?? ''),
          refsOf(r),
        ]),
      )
    : markdownTable(
        ['rule', 'level', 'why'],
        rules.map((r) => [`\`${r.id}\``, r.level, cell(r.reason ?? '')]),
      );
}

/**
 * The gate (waivers, baseline), first after the title: its decision, the diff against the baseline and the
 * waivers with their last day. The verdict in the title is unchanged by it.
 */
function gateSection(report: ConformanceReport): string[] {
  if (!report.gate) return [];
  const out = [`### Gate: ${report.gate.passed ? '✅' : '❌'} ${cell(report.gate.statement)}`, ''];
  const baseline = baselineSection(report);
  if (baseline) out.push(`**${cell(baseline.title)}**`, '', ...baseline.lines.map((l) => `- ${cell(l)}`), '');
  const waivers = report.waivers;
  if (waivers) {
    out.push(
      `**Waivers** \`${cell(waivers.source)}\` (today ${waivers.today}${waivers.strict ? ', --strict-waivers' : ''})`,
      '',
      ...markdownTable(
        ['state', 'rule', 'endpoint', 'until', 'reason', 'ticket', 'note'],
        waivers.entries.map((e) => [
          e.state,
          `\`${cell(e.rule)}\``,
          cell(e.endpoint ?? 'every endpoint'),
          e.until,
          cell(e.reason),
          cell(e.ticket ?? ''),
          cell(e.note ?? ''),
        ]),
      ),
      '',
    );
  }
  return out;
}

/** What the run judged the target as, its deviations from the seed and the rules its declaration rules out. */
function declarationSection(report: ConformanceReport): string[] {
  const d = report.target.declaration;
  if (!d) return [];
  const out = [`Judged as: **${cell(d.class)}**`, ''];
  if (d.deviations.length) {
    out.push(`Declared deviations from the seed (${d.deviations.length}):`, '');
    for (const x of d.deviations) out.push(`- ${cell(x.text)} (\`${cell(x.field)}\`)`);
    out.push('');
  }
  return out;
}

/** Failures and warnings, worst impact first, each with its remedy and first replay line. */
function findingsSection(report: ConformanceReport): string[] {
  const findings = report.findings ?? [];
  if (!findings.length) return [];
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const rows = findings.map((f) => {
    const rule = byId.get(f.rule);
    return [
      cell(IMPACT_TITLES[f.impact]),
      `\`${f.rule}\`${rule ? cell(acceptanceTag(rule)) : ''}`,
      `${f.level}${f.verdict === 'warn' ? ' (warning)' : ''}`,
      cell(`${f.reason ?? ''}${f.consequences?.length ? ` — stops ${f.consequences.join(', ')}` : ''}`),
      cell(f.remedy),
    ];
  });
  return [
    `### Findings, worst first (${findings.length})`,
    '',
    ...markdownTable(['impact', 'rule', 'level', 'why', 'what to change'], rows),
    '',
  ];
}

/** The signed statement, when the run was signed (`--sign-key`): what it binds and how to check it. */
function statementSection(note: StatementNote): string[] {
  // Key ids are base64url and digests hex: nothing in them can break out of a code span.
  return [
    '### Signed statement',
    '',
    `\`${note.file}\` is an in-toto statement of this report in a DSSE envelope, signed with key ` +
      `\`${note.keyId}\` (${cell(note.algorithm)}); it attests \`conformance.json\` with SHA-256 \`${note.reportSha256}\`.`,
    '',
    fence(verifyCommand(note), 'sh'),
    '',
  ];
}

export function renderMarkdown(report: ConformanceReport, statement?: StatementNote): string {
  const { conformance, run } = report;
  const icon = { conformant: '✅', partial: '⚠️', 'not-conformant': '❌' }[outcomeOf(conformance)];
  const out: string[] = [];
  out.push(`## gatecheck: ${icon} ${cell(conformance.statement)}`, '');
  const profile = report.target.profile ? ` · profile **${cell(report.target.profile.name)}**` : '';
  out.push(
    `Target \`${cell(report.target.baseUrl)}\`${profile} · gatecheck ${report.suite.version} · ` +
      `catalogue ${report.catalogue.version} · seed ${run.seed} · strict: ${run.strict ? 'yes' : 'no'}` +
      `${run.shard ? ` · shard ${run.shard}` : ''}${run.merged ? ' · merged shards' : ''}` +
      `${run.filter ? ` · ${cell(run.filter)}` : ''} · ${run.startedAt} (${(run.durationMs / 1000).toFixed(1)} s)`,
    '',
  );
  out.push(...declarationSection(report));
  out.push(...gateSection(report));
  const polite = politenessLine(report);
  if (polite) out.push(`Politeness: ${cell(polite)}`, '');
  if (report.target.profile?.tls?.insecure) {
    out.push(
      '> ⚠️ **TLS certificate verification was OFF** (`tls.insecure`): the target was not authenticated.',
      '',
    );
  }

  const counts = LEVELS.map((level) => {
    const c = report.counts[level];
    return [level, c.pass, c.fail, c.warn, c.skip, c['not-run'], c['not-applicable'] ?? 0, c.total].map(
      String,
    );
  });
  out.push(
    ...markdownTable(['level', 'pass', 'fail', 'warn', 'skip', 'not run', 'n/a', 'total'], counts, [
      'left',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
      'right',
    ]),
    '',
  );

  out.push(...findingsSection(report));
  const failing = report.rules.filter((r) => r.verdict === 'fail');
  if (failing.length) {
    out.push(`### Failing rules (${failing.length})`, '', ...ruleTable(failing, true), '');
    for (const rule of failing) {
      const first = rule.evidence[0];
      if (!first) continue;
      out.push(
        `<details><summary><code>${cell(rule.id)}</code>: evidence</summary>`,
        '',
        evidenceBlock(first),
        '',
      );
      out.push('</details>', '');
    }
  }
  const warned = report.rules.filter((r) => r.verdict === 'warn');
  if (warned.length) out.push(`### Warnings (${warned.length})`, '', ...ruleTable(warned, true), '');

  for (const [verdict, title] of [
    ['skip', 'Skipped'],
    ['not-run', 'Not run'],
    ['not-applicable', 'Not applicable to the declared interface'],
  ] as const) {
    const rules = report.rules.filter((r) => r.verdict === verdict);
    if (!rules.length) continue;
    out.push(
      `<details><summary>${title} (${rules.length})</summary>`,
      '',
      ...ruleTable(rules, false),
      '',
      '</details>',
      '',
    );
  }
  const broken = report.unattributed.filter((t) => t.outcome === 'failed');
  if (broken.length) {
    out.push('### Suite tests outside any rule that failed', '');
    for (const t of broken) out.push(`- ${cell(t.title)} (\`${cell(t.location)}\`)`);
    out.push('');
  }
  if (run.errors.length) {
    out.push('### Run errors', '');
    for (const e of run.errors) out.push(fence(e, 'text'), '');
  }
  if (statement) out.push(...statementSection(statement));
  out.push('Full report: `conformance.html` and `conformance.json` in the report directory.', '');
  return out.join('\n');
}
