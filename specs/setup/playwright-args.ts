/**
 * What `playwright test` was asked to select, read from the runner's own argv: the one reading of Playwright's
 * command line for the run (the report's "not selected in this run (--grep …)", specs/report/run-filter.ts; the
 * observers' project's `grep`, ./playwright-grep.ts). A worker's argv holds no `test` command: nothing.
 *
 * The options as Playwright's command line defines them: a long one's value after a space or `=`, a short
 * one's after a space or joined (`-gx`); nothing after `--` is an option.
 */

/** Playwright's options that filter the tests. */
const FILTERS = ['--grep', '-g', '--grep-invert', '-G', '--project', '--test-list', '--test-list-invert'];
/** Its filters without a value. */
const SWITCHES = ['--only-changed', '--last-failed'];
/** Its other options that take a value (so the value is not read as a file filter). */
const VALUED = [
  '--config',
  '-c',
  '--reporter',
  '--workers',
  '-j',
  '--timeout',
  '--output',
  '--shard',
  '--repeat-each',
  '--retries',
  '--max-failures',
  '--global-timeout',
  '--trace',
  '--tsconfig',
  '--browser',
  '--update-snapshots',
  '-u',
  '--update-source-method',
];
/** Valued options whose value is optional (`-u` alone means `changed`). */
const VALUE_OPTIONAL = ['--update-snapshots', '-u'];

/** One selection of the command line: a filter with its value, a switch, or a file argument (`flag` undefined). */
export interface TestSelection {
  readonly flag?: string;
  readonly value?: string;
}

/** The option of one argument and its value when written into it: `--grep=x`, `-gx`; undefined for none. */
function optionOf(arg: string): { flag: string; inline?: string } | undefined {
  if (!arg.startsWith('-')) return undefined;
  const equals = arg.indexOf('=');
  if (arg.startsWith('--'))
    return equals > 0 ? { flag: arg.slice(0, equals), inline: arg.slice(equals + 1) } : { flag: arg };
  const short = arg.slice(0, 2);
  return arg.length > 2 && [...FILTERS, ...VALUED].includes(short)
    ? { flag: short, inline: arg.slice(2) }
    : { flag: arg };
}

/** The selections of a `playwright test` command line, in order; none for any other command. */
export function testSelections(argv: readonly string[]): TestSelection[] {
  // argv: node, Playwright's cli.js, then the command.
  if (argv[2] !== 'test') return [];
  const selections: TestSelection[] = [];
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    const option = optionOf(arg);
    if (option === undefined) selections.push({ value: arg });
    else if (FILTERS.includes(option.flag))
      selections.push({ flag: option.flag, value: option.inline ?? argv[++i] ?? '' });
    else if (SWITCHES.includes(option.flag)) selections.push({ flag: option.flag });
    else if (
      VALUED.includes(option.flag) &&
      option.inline === undefined &&
      !VALUE_OPTIONAL.includes(option.flag)
    )
      i++;
  }
  return selections;
}
