/**
 * The short human summary printed at the end of a run (terminal, CI log): the verdict, counts per
 * level, the failing rule ids with why, and where the full report is.
 */

import path from 'node:path';
import { type ConformanceReport, LEVELS, type RuleReport } from './model.ts';
import { politenessLine } from './politeness.ts';

/** A path as a person would type it from here: relative below the working directory, else absolute. */
export function displayPath(file: string, cwd: string = process.cwd()): string {
  const relative = path.relative(cwd, file);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function line(rule: RuleReport, mark: string): string {
  return `  ${mark} ${rule.id} [${rule.level}]${rule.reason ? ` — ${rule.reason}` : ''}`;
}

export function renderText(report: ConformanceReport, reportDir: string): string {
  const out: string[] = [];
  const profile = report.target.profile ? ` · profile "${report.target.profile.name}"` : '';
  out.push(
    `gatecheck ${report.suite.version} · catalogue ${report.catalogue.version} · target ${report.target.baseUrl}${profile}`,
  );
  out.push(`${report.conformance.conformant ? '✔' : '✘'} ${report.conformance.statement}`);
  for (const level of LEVELS) {
    const c = report.counts[level];
    if (c.total === 0) continue;
    out.push(
      `  ${level.padEnd(6)} ${c.pass} pass · ${c.fail} fail · ${c.warn} warn · ${c.skip} skip · ${c['not-run']} not run`,
    );
  }
  const failing = report.rules.filter((r) => r.verdict === 'fail');
  if (failing.length) {
    out.push('Failing rules:');
    for (const rule of failing) out.push(line(rule, '✘'));
  }
  const warned = report.rules.filter((r) => r.verdict === 'warn');
  if (warned.length) {
    out.push('Warnings:');
    for (const rule of warned) out.push(line(rule, '!'));
  }
  const broken = report.unattributed.filter((t) => t.outcome === 'failed');
  if (broken.length) {
    out.push('Suite tests outside any rule that failed:');
    for (const t of broken) out.push(`  ✘ ${t.title} (${t.location})`);
  }
  const polite = politenessLine(report);
  if (polite) out.push(`Politeness: ${polite}`);
  for (const error of report.run.errors) out.push(`Run error: ${error.split('\n')[0]}`);
  out.push(`Report: ${reportDir}/conformance.html (also conformance.json, summary.md)`);
  return `${out.join('\n')}\n`;
}
