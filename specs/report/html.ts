/**
 * conformance.html: one self-contained page (inline CSS, no script, a CSP that forbids any fetch) that
 * QA opens from disk and vendors publish. Top to bottom: the verdict, counts per level, the status ×
 * rule matrix, each failure with request / response / expected / replay, then every rule.
 */

import type { Evidence } from '../lib/evidence.ts';
import { IMPACT_TITLES } from '../rules/types.ts';
import { acceptanceTag, baselineSection, waiversSection } from './gate/lines.ts';
import { type ConformanceReport, LEVELS, type RuleReport, type Verdict } from './model.ts';
import { gatePassed, outcomeOf } from './outcome.ts';
import { politenessLine } from './politeness.ts';
import { type StatementNote, statementSentence, verifyCommand } from './statement-note.ts';

/** Statuses the seed names (§4, §7); a rule's own statuses are added to these columns. */
const SEED_STATUSES = [200, 400, 401, 403, 404, 405, 429, 500];

const VERDICT_LABEL: Readonly<Record<Verdict, string>> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  skip: 'skip',
  'not-run': 'not run',
  'not-applicable': 'not applicable',
};
const VERDICT_MARK: Readonly<Record<Verdict, string>> = {
  pass: '✔',
  fail: '✘',
  warn: '!',
  skip: '–',
  'not-run': '·',
  'not-applicable': '∅',
};
/** Worst first: a matrix column shows the worst verdict among its rules. */
const SEVERITY: readonly Verdict[] = ['fail', 'warn', 'pass', 'skip', 'not-run', 'not-applicable'];

export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Only http(s) references become links. A relative one (the seed, cited by its file name in the repository)
 * would be dead wherever the report is published, and javascript:/data: must never be clickable: text.
 */
function link(url: string, text: string): string {
  return /^https?:\/\//i.test(url)
    ? `<a href="${esc(url)}">${esc(text)}</a>`
    : `<span title="${esc(url)}">${esc(text)}</span>`;
}

function badge(verdict: Verdict): string {
  return `<span class="badge v-${verdict}" title="${VERDICT_LABEL[verdict]}">${VERDICT_MARK[verdict]} ${VERDICT_LABEL[verdict]}</span>`;
}

function anchor(rule: RuleReport): string {
  return `rule-${rule.id.replace(/[^\w.-]/g, '_')}`;
}

function refs(rule: RuleReport): string {
  return rule.refs.map((r) => link(r.url, `${r.spec} ${r.section}`)).join(', ');
}

function headersText(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function evidenceHtml(e: Evidence, index: number): string {
  const requestLines = [`${e.request.method} ${e.request.url}`];
  if (Object.keys(e.request.headers).length) requestLines.push(headersText(e.request.headers));
  if (e.request.body) requestLines.push('', e.request.body);
  const request = requestLines.join('\n');
  const response = e.response
    ? [`HTTP ${e.response.status}`, headersText(e.response.headers), '', e.response.body].join('\n')
    : '(no response)';
  return `<div class="evidence">
<h4>Check ${index + 1}</h4>
<dl class="ea"><dt>Expected</dt><dd>${esc(e.expected)}</dd><dt>Actual</dt><dd>${esc(e.actual)}</dd></dl>
<div class="rr"><div><h5>Request</h5><pre>${esc(request)}</pre></div><div><h5>Response</h5><pre>${esc(response)}</pre></div></div>
${e.replay ? `<h5>Replay</h5><pre class="replay">${esc(e.replay)}</pre>` : ''}
</div>`;
}

function testsHtml(rule: RuleReport): string {
  if (!rule.tests.length) return '';
  const rows = rule.tests
    .map((t) => {
      const note = t.error ?? t.warnings?.join('; ') ?? t.skipReason ?? t.observations?.join('; ') ?? '';
      return `<tr><td class="o-${t.outcome}">${esc(t.outcome)}</td><td>${esc(t.title)}<div class="loc">${esc(t.location)}${t.attempts > 1 ? ` · ${t.attempts} attempts` : ''} · ${t.durationMs} ms</div></td><td><pre class="note">${esc(note)}</pre></td></tr>`;
    })
    .join('\n');
  return `<table class="tests"><thead><tr><th>outcome</th><th>test</th><th>message</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function ruleDetail(rule: RuleReport): string {
  const observations = rule.observations.length
    ? `<p><strong>Observed:</strong> ${esc(rule.observations.join('; '))}</p>`
    : '';
  return `<article class="rule" data-verdict="${rule.verdict}" id="${anchor(rule)}">
<h3>${badge(rule.verdict)} <code>${esc(rule.id)}</code> <span class="lvl">${rule.level}</span>${acceptanceTag(rule) ? ` <span class="accepted" data-waived="${rule.waiver !== undefined}" data-baseline="${rule.baseline?.change ?? ''}">${esc(acceptanceTag(rule).trim())}</span>` : ''}</h3>
${rule.waiver ? `<p class="waiver"><strong>Waived</strong> until ${esc(rule.waiver.until)}${rule.waiver.endpoint ? ` on ${esc(rule.waiver.endpoint)}` : ''}${rule.waiver.ticket ? ` (${esc(rule.waiver.ticket)})` : ''}: ${esc(rule.waiver.reason)} — still a failure; the gate accepts it.</p>` : ''}
<p class="req">${esc(rule.requirement)}</p>
<p class="refs">${refs(rule)}</p>
${rule.reason ? `<p class="why"><strong>Why:</strong> ${esc(rule.reason)}</p>` : ''}
${rule.verdict === 'fail' || rule.verdict === 'warn' ? remedyHtml(rule) : ''}
${observations}
${rule.evidence.map(evidenceHtml).join('\n')}
${testsHtml(rule)}
</article>`;
}

/** What to change, and the known causes on stacks the project's tests start. */
function remedyHtml(rule: RuleReport): string {
  const causes = (rule.causes ?? [])
    .map(
      (c) =>
        `<li>${esc(c.stack)}: ${esc(c.cause)} <span class="loc">(shown by ${esc(c.shownBy)})</span></li>`,
    )
    .join('');
  return `<p class="remedy"><strong>What to change:</strong> ${esc(rule.remedy)}</p>${causes ? `<p>Known causes:</p><ul>${causes}</ul>` : ''}`;
}

/** The class the target was judged as and its declared deviations from the seed (issue #66). */
function declarationHtml(report: ConformanceReport): string {
  const d = report.target.declaration;
  if (!d) return '';
  const deviations = d.deviations.length
    ? `<p>Declared deviations from the seed (${d.deviations.length}):</p><ul>${d.deviations.map((x) => `<li>${esc(x.text)} <code>${esc(x.field)}</code></li>`).join('')}</ul>`
    : '<p>No declared deviation from the seed.</p>';
  return `<section id="declaration"><h2>Declared interface</h2><p class="class"><strong>Judged as:</strong> ${esc(d.class)}</p>${deviations}</section>`;
}

/** Failures and warnings as findings, worst impact first, each linking its rule. */
function findingsHtml(report: ConformanceReport): string {
  const findings = report.findings ?? [];
  if (!findings.length) return '';
  const rows = findings
    .map(
      (f) =>
        `<tr data-impact="${f.impact}"><td>${esc(IMPACT_TITLES[f.impact])}</td><td><a href="#rule-${esc(f.rule.replace(/[^\w.-]/g, '_'))}"><code>${esc(f.rule)}</code></a></td><td>${f.level}${f.verdict === 'warn' ? ' (warning)' : ''}</td><td>${esc(f.remedy)}${f.consequences?.length ? `<div class="loc">stops: ${esc(f.consequences.join(', '))}</div>` : ''}</td></tr>`,
    )
    .join('');
  return `<section id="findings"><h2>Findings, worst first (${findings.length})</h2><table class="plain"><thead><tr><th>impact</th><th>rule</th><th>level</th><th>what to change</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** The gate (waivers, baseline): its decision, the diff against the baseline, then the waivers. */
function gateHtml(report: ConformanceReport): string {
  const gate = report.gate;
  if (!gate) return '';
  const sections = [baselineSection(report), waiversSection(report)].filter((x) => x !== undefined);
  return `<section id="gate" data-gate-passed="${gate.passed}"><h2>Gate: ${gate.passed ? 'passed' : 'failed'}</h2>
<p class="statement">${esc(gate.statement)}</p>
${sections.map((x) => `<h3>${esc(x.title)}</h3><ul>${x.lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`).join('\n')}
</section>`;
}

function matrix(report: ConformanceReport): string {
  const statuses = [...new Set([...SEED_STATUSES, ...report.rules.flatMap((r) => r.statuses)])].sort(
    (a, b) => a - b,
  );
  const head = statuses.map((s) => `<th scope="col">${s}</th>`).join('');
  const rows = report.rules
    .map((rule) => {
      const cells = statuses
        .map((s) =>
          rule.statuses.includes(s)
            ? `<td class="c v-${rule.verdict}" title="${esc(`${rule.id} · ${s} · ${VERDICT_LABEL[rule.verdict]}`)}">${VERDICT_MARK[rule.verdict]}</td>`
            : '<td class="c empty"></td>',
        )
        .join('');
      return `<tr><th scope="row"><a href="#${anchor(rule)}">${esc(rule.id)}</a></th><td class="lvl">${rule.level}</td>${cells}<td>${badge(rule.verdict)}</td></tr>`;
    })
    .join('\n');
  const worst = statuses
    .map((s) => {
      const verdicts = report.rules.filter((r) => r.statuses.includes(s)).map((r) => r.verdict);
      const v = SEVERITY.find((x) => verdicts.includes(x));
      return v
        ? `<td class="c v-${v}" title="worst verdict for ${s}">${VERDICT_MARK[v]}</td>`
        : '<td class="c empty"></td>';
    })
    .join('');
  return `<div class="scroll"><table id="matrix" class="matrix" aria-label="Status codes × rules">
<thead><tr><th scope="col">rule</th><th scope="col">level</th>${head}<th scope="col">verdict</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th scope="row">by status</th><td></td>${worst}<td></td></tr></tfoot>
</table></div>`;
}

function counts(report: ConformanceReport): string {
  const rows = LEVELS.map((level) => {
    const c = report.counts[level];
    return `<tr><th scope="row">${level}</th><td class="v-pass">${c.pass}</td><td class="v-fail">${c.fail}</td><td class="v-warn">${c.warn}</td><td>${c.skip}</td><td>${c['not-run']}</td><td>${c['not-applicable'] ?? 0}</td><td>${c.total}</td></tr>`;
  }).join('');
  return `<table id="counts" class="counts"><thead><tr><th>level</th><th>pass</th><th>fail</th><th>warn</th><th>skip</th><th>not run</th><th>not applicable</th><th>total</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function facts(report: ConformanceReport): string {
  const { run } = report;
  const items: [string, string][] = [
    ['Target', report.target.baseUrl],
    [
      'Profile',
      report.target.profile ? `${report.target.profile.name} (${report.target.profile.source})` : '(none)',
    ],
    ['Suite', `gatecheck ${report.suite.version} · Playwright ${report.suite.playwrightVersion}`],
    ['Catalogue', `${report.catalogue.version} · ${report.catalogue.rules} rules`],
    ['Started', run.startedAt],
    ['Duration', `${(run.durationMs / 1000).toFixed(1)} s`],
    ['Seed', String(run.seed)],
    ['Strict', run.strict ? 'yes: SHOULD failures fail the run' : 'no: SHOULD failures are warnings'],
  ];
  if (run.budget !== undefined) items.push(['Budget', `${run.budget} fuzz cases`]);
  const polite = politenessLine(report);
  if (polite) items.push(['Politeness', polite]);
  if (run.shard) items.push(['Shard', `${run.shard} (partial run)`]);
  if (run.merged) items.push(['Shards', 'merged from blob reports']);
  if (run.filter) items.push(['Selection', run.filter]);
  return `<dl class="facts">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

function profileHtml(report: ConformanceReport): string {
  const p = report.target.profile;
  if (!p) return '';
  const endpoints = Object.entries(p.endpoints)
    .map(
      ([role, e]) =>
        `<tr><th scope="row">${esc(role)}</th><td>${esc(e.method ?? 'GET')}</td><td><code>${esc(e.path)}</code></td><td>${esc((e.schemes ?? []).join(', ') || 'public')}</td></tr>`,
    )
    .join('');
  const identities = Object.entries(p.identities)
    .map(([name, kinds]) => `<li><strong>${esc(name)}</strong>: ${esc(kinds.join(', ') || 'none')}</li>`)
    .join('');
  const extra: string[] = [];
  if (p.jwt) extra.push(`JWT: ${p.jwt.alg}, signing material: ${p.jwt.signing}`);
  if (p.rateLimit) extra.push(`Rate limit: ${p.rateLimit.limit} per ${p.rateLimit.windowSeconds} s`);
  if (p.fault) extra.push(`Fault trigger: ${p.fault.method ?? 'GET'} ${p.fault.path}`);
  if (p.tls?.ca) extra.push('TLS: private CA');
  if (p.tls?.clientCertificate) extra.push('TLS: client certificate');
  const insecure = p.tls?.insecure
    ? '<p class="warn"><strong>TLS certificate verification was OFF (tls.insecure): the target was not authenticated.</strong></p>'
    : '';
  return `<section><h2>Profile</h2>
<table class="plain"><thead><tr><th>role</th><th>method</th><th>path</th><th>schemes</th></tr></thead><tbody>${endpoints}</tbody></table>
<p>Identities (credential kinds only; values are never reported):</p><ul>${identities}</ul>
${extra.length ? `<p>${esc(extra.join(' · '))}</p>` : ''}${insecure}
</section>`;
}

const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--skip:#6e7781;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa}
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1200px;margin:0 auto;padding:24px}h1{font-size:20px;margin:0 0 16px}h2{font-size:17px;margin:32px 0 12px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px}h4{margin:12px 0 4px;font-size:13px}h5{margin:8px 0 2px;font-size:12px;color:var(--muted);text-transform:uppercase}
.verdict{border-radius:8px;padding:16px 20px;color:#fff;margin-bottom:16px}.verdict.ok{background:var(--pass)}.verdict.partial{background:var(--warn)}.verdict.ko{background:var(--fail)}
.verdict .statement{font-size:22px;font-weight:600;margin:0}.verdict .sub{margin:4px 0 0;opacity:.92}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0 0 16px}.facts dt{color:var(--muted)}.facts dd{margin:0;word-break:break-all}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}thead th{background:var(--soft)}
.counts td{text-align:right;min-width:56px}.scroll{overflow-x:auto;max-width:100%}
.matrix th[scope=row]{position:sticky;left:0;background:var(--bg);white-space:nowrap;font-family:ui-monospace,monospace;font-size:12px}
.matrix .c{text-align:center;min-width:40px;font-weight:700}.matrix .empty{background:var(--soft)}
.v-pass{color:var(--pass)}.v-fail{color:var(--fail)}.v-warn{color:var(--warn)}.v-skip,.v-not-run,.v-not-applicable{color:var(--skip)}
td.c.v-pass{background:#dafbe1}td.c.v-fail{background:#ffebe9}td.c.v-warn{background:#fff8c5}td.c.v-skip,td.c.v-not-run,td.c.v-not-applicable{background:#eaeef2}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.lvl{font-size:12px;color:var(--muted);font-weight:600}
.rule{border:1px solid var(--line);border-left-width:4px;border-radius:6px;padding:12px 16px;margin:12px 0}
.rule[data-verdict=fail]{border-left-color:var(--fail)}.rule[data-verdict=warn]{border-left-color:var(--warn)}.rule[data-verdict=pass]{border-left-color:var(--pass)}.rule[data-verdict=skip],.rule[data-verdict=not-run],.rule[data-verdict=not-applicable]{border-left-color:var(--skip)}
.rule .req{margin:0 0 4px;color:var(--fg)}.rule .refs{margin:0 0 8px;font-size:12px}
.ea{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}.ea dt{font-weight:600}.ea dd{margin:0}
.rr{display:grid;grid-template-columns:1fr 1fr;gap:12px}@media (max-width:800px){.rr{grid-template-columns:1fr}}
pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:8px;margin:0;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre.note{background:none;border:0;padding:0}.replay{border-left:3px solid var(--fg)}
.tests{width:100%;margin-top:8px;font-size:13px}.loc{color:var(--muted);font-size:12px}
.o-failed{color:var(--fail);font-weight:600}.o-passed,.o-flaky{color:var(--pass)}.o-skipped{color:var(--skip)}
details>summary{cursor:pointer;font-weight:600;margin:8px 0}footer{color:var(--muted);font-size:12px;margin-top:32px}
`;

/** The signed statement, when the run was signed (`--sign-key`): what it binds and how to check it. */
function statementHtml(note: StatementNote): string {
  return `<section id="statement" data-key-id="${esc(note.keyId)}" data-report-sha256="${esc(note.reportSha256)}"><h2>Signed statement</h2>
<p>${esc(statementSentence(note))}</p>
<pre>${esc(verifyCommand(note))}</pre>
</section>`;
}

export function renderHtml(report: ConformanceReport, statement?: StatementNote): string {
  const { conformance } = report;
  const order = new Map((report.findings ?? []).map((f, i) => [f.rule, i]));
  const attention = report.rules
    .filter((r) => r.verdict === 'fail' || r.verdict === 'warn')
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const rest = report.rules.filter((r) => r.verdict !== 'fail' && r.verdict !== 'warn');
  const broken = report.unattributed.filter((t) => t.outcome === 'failed');
  const outcome = outcomeOf(conformance);
  const limit =
    report.run.maxSkippedMust === undefined
      ? '--max-skipped-must 0 would fail this run'
      : `within --max-skipped-must ${report.run.maxSkippedMust}`;
  const sub = conformance.conformant
    ? conformance.complete
      ? 'Every rule at the gated level was checked.'
      : `Not every gated rule was checked (${limit}); see skipped and not-run rules below.`
    : `Failing: ${conformance.failing.join(', ') || 'see below'}`;
  const title = { conformant: 'Conformant', partial: 'Partial', 'not-conformant': 'Not conformant' }[outcome];
  const css = { conformant: 'ok', partial: 'partial', 'not-conformant': 'ko' }[outcome];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="gatecheck ${esc(report.suite.version)}">
<title>${esc(title)} · ${esc(report.target.baseUrl)} · gatecheck</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>gatecheck conformance report</h1>
<section id="verdict" class="verdict ${css}" data-conformant="${conformance.conformant}" data-outcome="${outcome}" role="status">
<p class="statement">${esc(conformance.statement)}</p>
<p class="sub">${esc(sub)} · exit code ${gatePassed(report) ? 0 : 1}${report.gate ? ` (the gate ${report.gate.passed ? 'passed' : 'failed'}; the verdict above is unchanged by it)` : ''}</p>
</section>
${gateHtml(report)}
${facts(report)}
${declarationHtml(report)}
${findingsHtml(report)}${statement ? `\n${statementHtml(statement)}` : ''}
<section><h2>Rules per level</h2>${counts(report)}</section>
${report.run.errors.length ? `<section><h2>Run errors</h2>${report.run.errors.map((e) => `<pre>${esc(e)}</pre>`).join('')}</section>` : ''}
<section><h2>Status codes × rules</h2>
<p>Each row is a rule, each column a status code the rule is about; the cell shows the rule's verdict.</p>
${matrix(report)}
</section>
<section id="failures"><h2>Failures and warnings (${attention.length})</h2>
${attention.length ? attention.map(ruleDetail).join('\n') : '<p>None.</p>'}
${broken.length ? `<h3>Suite tests outside any rule that failed</h3><ul>${broken.map((t) => `<li>${esc(t.title)} <span class="loc">${esc(t.location)}</span><pre>${esc(t.error ?? '')}</pre></li>`).join('')}</ul>` : ''}
</section>
<section id="all-rules"><h2>Other rules (${rest.length})</h2>
<details><summary>Show passed, skipped, not-run and not-applicable rules</summary>
${rest.map(ruleDetail).join('\n')}
</details>
</section>
${profileHtml(report)}
<footer>Report schema ${esc(report.schemaVersion)} · generated ${esc(report.run.endedAt)} by gatecheck ${esc(report.suite.version)}. Credentials are redacted in every part of this page.</footer>
</main>
</body>
</html>
`;
}
