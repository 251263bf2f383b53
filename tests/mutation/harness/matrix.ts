/**
 * The mutation matrix: for each defect, the rules whose checks failed against the mock with that defect on,
 * judged against the expectations (tests/mutation/expectations/); for each rule of the catalogue, the defects that
 * kill it. Written as reports/mutation-matrix.json and reports/mutation-matrix.md; docs/defects.md quotes
 * the score.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DefectName, type DefectSpec, defectByName } from '../../../mock/defects/registry.ts';
import { CATALOGUE_VERSION, catalogue } from '../../../specs/rules/catalogue.ts';
import type { Level } from '../../../specs/rules/types.ts';
import { EXPECTATIONS, UNPROVEN } from '../expectations/index.ts';
import { CONFORMANT } from './manifest.ts';
import type { RunResult, TargetVerdict } from './run.ts';

export interface DefectRow {
  readonly defect: string;
  readonly layer: string;
  /** The rules it is expected to break (each must fail). */
  readonly rules: readonly string[];
  /** Other rules stated to catch it too. */
  readonly collateral: readonly string[];
  /** What failed in the run. */
  readonly failing: readonly string[];
  /** Every rule in `rules` failed. */
  readonly caught: boolean;
  /** Rules in `rules` that did not fail. */
  readonly missed: readonly string[];
  /** Failing rules outside `rules` and `collateral`. */
  readonly unexpected: readonly string[];
  readonly fuzz: boolean;
  readonly budget: number;
  /** The first failure line of each failing rule. */
  readonly evidence: Readonly<Record<string, string>>;
  readonly errors: readonly string[];
}

export interface RuleRow {
  readonly rule: string;
  readonly level: Level;
  readonly killedBy: readonly string[];
  /** Set when no defect kills it: why (expectations' UNPROVEN), or that no defect of this run did. */
  readonly unproven?: string;
}

export interface Matrix {
  readonly generatedAt: string;
  readonly catalogueVersion: string;
  readonly command: string;
  readonly durationMs: number;
  readonly strict: true;
  readonly conformant: {
    readonly failing: readonly string[];
    readonly passing: readonly string[];
    readonly skipped: Readonly<Record<string, string>>;
    readonly errors: readonly string[];
  };
  readonly score: {
    readonly defectsCaught: number;
    readonly defectsTotal: number;
    readonly rulesKilled: number;
    readonly rulesTotal: number;
    /** Rules that no defect kills by nature (INFO) or design, with the reason. */
    readonly rulesUnproven: number;
    readonly defectsWithUnexpectedFailures: number;
  };
  readonly defects: readonly DefectRow[];
  readonly rules: readonly RuleRow[];
  readonly runErrors: readonly string[];
}

export interface MatrixInput {
  readonly result: RunResult;
  readonly defects: readonly string[];
  readonly fuzz: (name: string) => boolean;
  readonly budget: (name: string) => number;
}

export function buildMatrix({ result, defects, fuzz, budget }: MatrixInput): Matrix {
  const empty: TargetVerdict = {
    name: '',
    failing: [],
    passing: [],
    skipped: {},
    errors: ['no verdict'],
    reasons: {},
  };
  const rows: DefectRow[] = defects.map((name) => {
    const spec = defectByName(name) as DefectSpec;
    const { rules, collateral = [] } = EXPECTATIONS[name as DefectName];
    const verdict = result.verdicts.get(name) ?? empty;
    const failing = verdict.failing;
    const allowed = new Set([...rules, ...collateral]);
    const missed = rules.filter((id) => !failing.includes(id));
    return {
      defect: name,
      layer: spec.layer,
      rules,
      collateral,
      failing,
      caught: missed.length === 0 && verdict.errors.length === 0,
      missed,
      unexpected: failing.filter((id) => !allowed.has(id)),
      fuzz: fuzz(name),
      budget: budget(name),
      evidence: verdict.reasons,
      errors: verdict.errors,
    };
  });
  const rules: RuleRow[] = catalogue.map((rule) => {
    const killedBy = rows.filter((row) => row.failing.includes(rule.id)).map((row) => row.defect);
    const reason = UNPROVEN[rule.id];
    return {
      rule: rule.id,
      level: rule.level,
      killedBy,
      ...(killedBy.length > 0 ? {} : { unproven: reason ?? 'no defect of this run made it fail' }),
    };
  });
  const conformant = result.verdicts.get(CONFORMANT) ?? empty;
  return {
    generatedAt: new Date().toISOString(),
    catalogueVersion: CATALOGUE_VERSION,
    command: result.command,
    durationMs: Math.round(result.durationMs),
    strict: true,
    conformant: {
      failing: conformant.failing,
      passing: conformant.passing,
      skipped: conformant.skipped,
      errors: conformant.errors,
    },
    score: {
      defectsCaught: rows.filter((r) => r.caught).length,
      defectsTotal: rows.length,
      rulesKilled: rules.filter((r) => r.killedBy.length > 0).length,
      rulesTotal: rules.length,
      rulesUnproven: rules.filter((r) => r.killedBy.length === 0 && UNPROVEN[r.rule] !== undefined).length,
      defectsWithUnexpectedFailures: rows.filter((r) => r.unexpected.length > 0).length,
    },
    defects: rows,
    rules,
    runErrors: result.errors,
  };
}

export function renderMarkdown(matrix: Matrix, testCommand: string): string {
  const { score } = matrix;
  const lines: string[] = [
    '# Mutation matrix',
    '',
    `The conformance suite (catalogue ${matrix.catalogueVersion}, strict: SHOULD rules fail) run against the mock once per`,
    'defect mode (mock/defects/, docs/defects.md), each defect alone, plus once against the conformant mock.',
    '',
    `- **Defects caught: ${score.defectsCaught} / ${score.defectsTotal}** (every rule the defect is meant to break failed)`,
    `- **Rules killed by at least one defect: ${score.rulesKilled} / ${score.rulesTotal}**` +
      ` (${score.rulesUnproven} unproven, reasons below)`,
    `- Defects that failed a rule outside their stated ones: ${score.defectsWithUnexpectedFailures}`,
    `- Conformant mock: ${matrix.conformant.failing.length === 0 ? 'every rule passes' : `FAILS ${matrix.conformant.failing.join(', ')}`}` +
      `${Object.keys(matrix.conformant.skipped).length ? `; skipped ${Object.keys(matrix.conformant.skipped).join(', ')}` : ''}`,
    `- Generated ${matrix.generatedAt} by \`${testCommand}\` in ${(matrix.durationMs / 1000).toFixed(0)} s`,
    `- Child run: \`${matrix.command}\``,
    '',
    '## Defect × failing rules',
    '',
    'Failing rules: **bold** = a rule the defect is meant to break; plain = stated collateral; ⚠ = not stated.',
    '',
    '| defect | layer | caught | failing rules | fuzz specs |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const row of matrix.defects) {
    const failing = row.failing.map((id) =>
      row.rules.includes(id) ? `**${id}**` : row.collateral.includes(id) ? id : `⚠ ${id}`,
    );
    const missed = row.missed.map((id) => `✘ missed ${id}`);
    lines.push(
      `| \`${row.defect}\` | ${row.layer} | ${row.caught ? 'yes' : '**NO**'} | ${[...failing, ...missed].join('<br>') || '(none)'} | ${row.fuzz ? `yes (budget ${row.budget})` : 'no'} |`,
    );
  }
  lines.push('', '## Rule × killing defects', '', '| rule | level | killed by |', '| --- | --- | --- |');
  for (const row of matrix.rules) {
    lines.push(
      `| \`${row.rule}\` | ${row.level} | ${row.killedBy.length ? row.killedBy.map((d) => `\`${d}\``).join(', ') : `unproven: ${row.unproven}`} |`,
    );
  }
  if (matrix.runErrors.length > 0) {
    lines.push('', '## Run errors', '', ...matrix.runErrors.map((e) => `- ${e}`));
  }
  return `${lines.join('\n')}\n`;
}

export async function writeMatrix(matrix: Matrix, dir: string, testCommand: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'mutation-matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  await writeFile(join(dir, 'mutation-matrix.md'), renderMarkdown(matrix, testCommand));
}
