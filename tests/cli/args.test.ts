/**
 * Flags → options, and --only / --skip → the --grep expressions Playwright gets. In-process: none of this
 * reaches the network or Playwright.
 */

import path from 'node:path';
import { expect, test } from '@playwright/test';
import { main } from '../../cli/app.ts';
import { parseCommand } from '../../cli/args.ts';
import { EXIT, UsageError } from '../../cli/exit-codes.ts';
import { selection } from '../../cli/filter.ts';

const IDS = [
  'auth.401.missing',
  'auth.401.challenge',
  'auth.401.challenge-per-scheme',
  'bearer.jwt.alg-none',
];

test.describe('parseCommand', () => {
  test('run options: every flag, relative paths resolved against the working directory', () => {
    const command = parseCommand(
      [
        '--base-url',
        'https://api.example/v1/',
        '--profile',
        'p.json',
        '--strict',
        '--only',
        'auth.401.missing,@must',
        '--only',
        'bearer.*',
        '--skip',
        'auth.401.challenge',
        '--seed=-7',
        '--budget',
        '500',
        '--report-dir',
        'out',
        '--shard',
        '2/3',
        '--',
        '--workers',
        '1',
      ],
      '/work',
    );
    expect(command).toEqual({
      kind: 'run',
      options: {
        baseUrl: 'https://api.example/v1',
        profile: path.resolve('/work', 'p.json'),
        strict: true,
        only: ['auth.401.missing', '@must', 'bearer.*'],
        skip: ['auth.401.challenge'],
        seed: -7,
        budget: 500,
        reportDir: path.resolve('/work', 'out'),
        shard: { current: 2, total: 3 },
        passthrough: ['--workers', '1'],
      },
    });
  });

  test('--max-skipped-must: a count of MUST rules, for a whole run or merge-reports', () => {
    expect(parseCommand(['--max-skipped-must', '3'], '/w')).toMatchObject({
      kind: 'run',
      options: { maxSkippedMust: 3 },
    });
    expect(parseCommand(['merge-reports', 'blobs', '--max-skipped-must=0'], '/w')).toMatchObject({
      kind: 'merge',
      options: { maxSkippedMust: 0 },
    });
  });

  test('defaults: reports/ under the working directory, not strict, no filter', () => {
    expect(parseCommand([], '/w')).toEqual({
      kind: 'run',
      options: {
        strict: false,
        only: [],
        skip: [],
        reportDir: path.resolve('/w', 'reports'),
        passthrough: [],
      },
    });
  });

  test('subcommands and information flags', () => {
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommand(['-v'])).toEqual({ kind: 'version' });
    expect(parseCommand(['--list-rules'])).toEqual({ kind: 'list-rules' });
    expect(parseCommand(['rules', '--markdown'])).toEqual({ kind: 'rules', format: 'markdown' });
    expect(parseCommand(['rules'])).toEqual({ kind: 'rules', format: 'text' });
    expect(parseCommand(['merge-reports', 'blobs', '--strict'], '/w')).toMatchObject({
      kind: 'merge',
      blobDir: path.resolve('/w', 'blobs'),
      options: { strict: true },
    });
  });

  const bad: [string[], RegExp][] = [
    [['--shard', '0/2'], /--shard must be <current>\/<total>/],
    [['--shard', 'two'], /--shard must be/],
    [['--budget=-1'], /--budget must be an integer from 0/],
    [['--seed', '-1'], /argument is ambiguous\. Did you forget/],
    [['--seed', '1.5'], /--seed must be an integer/],
    [['--seed', '99999999999'], /--seed must be an integer/],
    [['--base-url', 'localhost:3000'], /--base-url must be an http:\/\/ or https:\/\/ URL/],
    [['--base-url', 'http://x/?a=1'], /must not carry a query/],
    [['--profile', ''], /--profile must name a JSON file/],
    [['--strict=yes'], /--strict/],
    [['--max-skipped-must', '-1'], /argument is ambiguous|--max-skipped-must must be an integer from 0/],
    [['--max-skipped-must=-1'], /--max-skipped-must must be an integer from 0/],
    [['--max-skipped-must', 'none'], /--max-skipped-must must be an integer from 0/],
    [['--shard', '1/2', '--max-skipped-must', '0'], /--max-skipped-must belongs to merge-reports/],
    [['extra'], /unexpected argument "extra"/],
    [['rules', '--markdown', '--json'], /choose one/],
    [['merge-reports'], /needs one argument/],
    [['merge-reports', 'd', '--only', 'x'], /--only belongs to the shard runs/],
  ];
  for (const [argv, message] of bad) {
    test(`usage error: ${argv.join(' ')}`, () => {
      expect(() => parseCommand(argv)).toThrow(UsageError);
      expect(() => parseCommand(argv)).toThrow(message);
    });
  }
});

test.describe('selection (--only / --skip → --grep / --grep-invert)', () => {
  const matches = (source: string | undefined, tags: string) =>
    new RegExp(source ?? '(?!)').test(`suite title ${tags}`);

  test('a rule id selects its tag and not a longer id that starts with it', () => {
    const { grep } = selection(['auth.401.challenge'], [], IDS);
    expect(matches(grep, '@must @rule:auth.401.challenge')).toBe(true);
    expect(matches(grep, '@should @rule:auth.401.challenge-per-scheme')).toBe(false);
    expect(matches(grep, '@must @rule:auth.401Xchallenge')).toBe(false);
  });

  test('patterns expand over the catalogue; level tags select by level', () => {
    const { grep, grepInvert, description } = selection(['auth.401.*', '@MUST'], ['auth.401.missing'], IDS);
    expect(matches(grep, '@should @rule:auth.401.challenge-per-scheme')).toBe(true);
    expect(matches(grep, '@must @rule:bearer.jwt.alg-none')).toBe(true);
    expect(matches(grep, '@info @rule:other')).toBe(false);
    expect(matches(grepInvert, '@must @rule:auth.401.missing')).toBe(true);
    expect(matches(grepInvert, '@must @rule:auth.401.challenge')).toBe(false);
    expect(description).toBe('--only auth.401.*,@MUST --skip auth.401.missing');
  });

  test('nothing selected → no grep at all', () => {
    expect(selection([], [], IDS)).toEqual({});
  });

  test('unknown ids and empty patterns are usage errors that point at --list-rules', () => {
    expect(() => selection(['auth.401.mising'], [], IDS)).toThrow(
      '--only: unknown rule id "auth.401.mising"; did you mean auth.401.missing, auth.401.challenge, auth.401.challenge-per-scheme? (gatecheck --list-rules shows them)',
    );
    expect(() => selection([], ['nope.*'], IDS)).toThrow('--skip: no rule id matches "nope.*"');
    expect(() => selection(['a b'], [], IDS)).toThrow('is not a rule id');
  });
});

test.describe('main() without Playwright', () => {
  function capture() {
    const io = {
      stdout: '',
      stderr: '',
      out(text: string) {
        io.stdout += text;
      },
      err(text: string) {
        io.stderr += text;
      },
    };
    return io;
  }

  test('--help lists every flag and the exit codes', async () => {
    const io = capture();
    expect(await main(['--help'], io)).toBe(EXIT.conformant);
    for (const flag of [
      '--base-url',
      '--profile',
      '--strict',
      '--max-skipped-must',
      '--only',
      '--skip',
      '--seed',
      '--budget',
      '--report-dir',
      '--shard',
      '--list-rules',
      '--version',
      'rules --markdown',
      'merge-reports',
    ]) {
      expect(io.stdout, flag).toContain(flag);
    }
    expect(io.stdout).toMatch(/^ {2}3 {2}target unreachable/m);
  });

  test('--version names the suite, catalogue and report schema versions', async () => {
    const io = capture();
    expect(await main(['--version'], io)).toBe(EXIT.conformant);
    expect(io.stdout).toMatch(
      /^gatecheck \d+\.\d+\.\d+\ncatalogue \S+ \(\d+ rules\)\nreport schema 1\.\d+\.\d+\nplaywright \d/,
    );
  });

  test('a usage error is one line on stderr and exit 2', async () => {
    const io = capture();
    expect(await main(['--only', 'no.such.rule'], io)).toBe(EXIT.usage);
    expect(io.stderr.trim().split('\n')).toHaveLength(1);
    expect(io.stderr).toMatch(/^gatecheck: --only: unknown rule id "no.such.rule"/);
  });
});
