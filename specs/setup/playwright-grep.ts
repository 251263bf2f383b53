/**
 * The `--grep` / `--grep-invert` a Playwright runner was started with, for the observers' teardown project.
 * Playwright applies its command line's selection to the projects it was asked to run and not to their
 * teardown; a project's own `grep` it applies to every project. The observer verdicts' project takes the
 * command line's selection as its own `grep`, so `npx playwright test --grep @rule:auth` judges no
 * observer rule it does not select, as `gatecheck --only` already does (docs/observers.md "Selecting rules").
 *
 * Read from the runner's argv the way Playwright's command line defines them (`-g, --grep <grep>`,
 * `-G, --grep-invert <grep>`; the last one given wins) and turned into a RegExp the way Playwright turns
 * them (`/source/flags`, else case-insensitive). A worker, whose argv holds no `test` command, and
 * Playwright's UI mode find none, and every observer verdict stays. A project's `grep` stands in for the
 * config's: with a `grep` in the config and one on the command line, the verdicts follow the command line's.
 */

export interface GrepSelection {
  readonly grep?: RegExp;
  readonly grepInvert?: RegExp;
}

const OPTIONS: Readonly<Record<string, keyof GrepSelection>> = {
  '-g': 'grep',
  '--grep': 'grep',
  '-G': 'grepInvert',
  '--grep-invert': 'grepInvert',
};

/** As Playwright's forceRegExp: `/source/flags` (flags g and i only), else the text, case-insensitive. */
function titleRegExp(pattern: string): RegExp {
  const match = /^\/(.*)\/([gi]*)$/.exec(pattern);
  return match ? new RegExp(match[1] ?? '', match[2]) : new RegExp(pattern, 'gi');
}

/** The option and its value of one argument: `--grep x` (value next), `--grep=x`, `-gx`. */
function optionOf(arg: string): { key: keyof GrepSelection; value?: string } | undefined {
  const key = OPTIONS[arg];
  if (key) return { key };
  const equals = arg.indexOf('=');
  if (arg.startsWith('--') && equals > 0) {
    const named = OPTIONS[arg.slice(0, equals)];
    return named ? { key: named, value: arg.slice(equals + 1) } : undefined;
  }
  const short = OPTIONS[arg.slice(0, 2)];
  return !arg.startsWith('--') && short ? { key: short, value: arg.slice(2) } : undefined;
}

/** The selection of a `playwright test` command line; none for any other command. */
export function playwrightGrep(argv: readonly string[] = process.argv): GrepSelection {
  // argv: node, Playwright's cli.js, then the command.
  if (argv[2] !== 'test') return {};
  const found: { grep?: string; grepInvert?: string } = {};
  for (let i = 3; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    const option = optionOf(arg);
    if (!option) continue;
    const value = option.value ?? argv[++i];
    if (value !== undefined) found[option.key] = value;
  }
  return {
    ...(found.grep === undefined ? {} : { grep: titleRegExp(found.grep) }),
    ...(found.grepInvert === undefined ? {} : { grepInvert: titleRegExp(found.grepInvert) }),
  };
}
