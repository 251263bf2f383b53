/**
 * Every example a user can copy must run: the command lines in `gatecheck --help` (its Examples and the
 * selector examples) and every `npx gatecheck …` line in the README, docs/cli.md and docs/ci.md. Each is
 * parsed by the CLI's own parser and its --only / --skip resolved against the catalogue; it must select at
 * least one rule. Nothing is sent anywhere: only the arguments are checked.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'shell-quote';
import { parseCommand } from '../../cli/args.ts';
import { selection } from '../../cli/filter.ts';
import { helpText } from '../../cli/help.ts';
import { loadCatalogue } from '../../specs/report/catalogue-source.ts';
import { ROOT } from '../report/synthetic.ts';

const DOCS = ['README.md', 'docs/cli.md', 'docs/ci.md'];

/** Shell and CI placeholders (`$RUNNER_TEMP`, `${{ vars.TARGET_URL }}`) get harmless loopback-only values. */
function placeholder(name: string): string {
  if (/url/i.test(name)) return 'http://127.0.0.1:9';
  if (/shard/i.test(name)) return '1';
  return `/placeholder/${name.toLowerCase()}`;
}

/** A YAML folded scalar (`run: >` and the more-indented lines after it) as the one line it stands for. */
function unfold(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!/\brun: >-?\s*$/.test(line)) {
      out.push(line);
      continue;
    }
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    const folded: string[] = [];
    while (i + 1 < lines.length && (/^\s*/.exec(lines[i + 1] ?? '')?.[0].length ?? 0) > indent) {
      folded.push((lines[++i] ?? '').trim());
    }
    out.push(folded.join(' '));
  }
  return out;
}

/** One command line → the argv of each `gatecheck` command on it (`a && b` is two). */
function argvsOf(line: string): string[][] {
  const text = line.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => placeholder(name));
  const argvs: string[][] = [[]];
  for (const entry of parse(text, (name) => placeholder(name))) {
    if (typeof entry === 'string') argvs[argvs.length - 1]?.push(entry);
    else if ('pattern' in entry) argvs[argvs.length - 1]?.push(entry.pattern);
    else if ('comment' in entry) break;
    else argvs.push([]);
  }
  return argvs
    .map((argv) => (argv[0] === 'npx' ? argv.slice(1) : argv))
    .filter((argv) => argv[0] === 'gatecheck')
    .map((argv) => argv.slice(1));
}

function helpExamples(): string[] {
  const help = helpText();
  const section = /\nExamples\n([\s\S]*?)\n\n/.exec(help)?.[1] ?? '';
  // Two or more spaces end the command and start its description.
  const lines = section.split('\n').map((l) => l.trim().split(/ {2,}/)[0] ?? '');
  // The selector examples in the flag descriptions: "a rule id (auth.401.challenge), an id pattern (…)".
  const selectorLine = /selector: ([\s\S]*?)\n {2}--/.exec(help)?.[1] ?? '';
  const selectors = [...selectorLine.matchAll(/\(([^)]+)\)/g)].flatMap((m) => (m[1] ?? '').split(/,\s*/));
  return [...lines, ...selectors.map((s) => `gatecheck --only '${s}'`)];
}

/** `npx gatecheck …` in fenced blocks (a trailing `\` continues the line) and in inline code. */
function docExamples(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\\\n\s*/g, ' ');
  const fenced = [...text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].flatMap((m) =>
    unfold((m[1] ?? '').split('\n')),
  );
  const inline = [...text.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  // `npx gatecheck-mock` is the mock's command, not the CLI's.
  return [...fenced, ...inline]
    .map((line) => /npx gatecheck(?![-\w]).*$/.exec(line)?.[0])
    .filter((line): line is string => line !== undefined);
}

const unique = (lines: string[]) => [...new Set(lines)];
const examples: { source: string; line: string }[] = [
  ...unique(helpExamples()).map((line) => ({ source: 'gatecheck --help', line })),
  ...DOCS.flatMap((file) => unique(docExamples(file)).map((line) => ({ source: file, line }))),
];

test('the help and the docs have examples to check', () => {
  expect(examples.filter((e) => e.source === 'gatecheck --help').length).toBeGreaterThanOrEqual(6);
  for (const file of DOCS) expect(examples.filter((e) => e.source === file).length, file).toBeGreaterThan(0);
});

for (const { source, line } of examples) {
  test(`${source}: ${line}`, async () => {
    const rules = (await loadCatalogue()).rules;
    const ids = rules.map((r) => r.id);
    const argvs = argvsOf(line);
    expect(argvs.length, 'no gatecheck command found').toBeGreaterThan(0);
    for (const argv of argvs) {
      const command = parseCommand(argv, '/nowhere');
      if (command.kind !== 'run') continue;
      const { only, skip } = command.options;
      const chosen = selection(only, skip, ids);
      // What Playwright would run: the tags of each rule against --grep / --grep-invert.
      const selected = rules.filter(({ id, level }) => {
        const tags = `title @rule:${id} @${level.toLowerCase()}`;
        return (
          (!chosen.grep || new RegExp(chosen.grep).test(tags)) &&
          (!chosen.grepInvert || !new RegExp(chosen.grepInvert).test(tags))
        );
      });
      expect(selected.length, `${argv.join(' ')} selects no rule`).toBeGreaterThan(0);
    }
  });
}
