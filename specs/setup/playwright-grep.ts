/**
 * The `--grep` / `--grep-invert` a Playwright runner was started with, for the observers' teardown project.
 * Playwright applies its command line's selection to the projects it was asked to run and not to their
 * teardown; a project's own `grep` it applies to every project. The observer verdicts' project takes the
 * command line's selection as its own `grep`, so `npx playwright test --grep @rule:auth` judges no
 * observer rule it does not select — nor does `gatecheck --only`, which hands its selection to Playwright as
 * `--grep` (docs/observers.md "Selecting rules").
 *
 * Read from the runner's argv (./playwright-args.ts: `-g, --grep <grep>`, `-G, --grep-invert <grep>`; the last
 * one given wins) and turned into a RegExp the way Playwright turns them (`/source/flags`, else
 * case-insensitive). A worker, whose argv holds no `test` command, and Playwright's UI mode find none, and
 * every observer verdict stays. A project's `grep` stands in for the config's: with a `grep` in the config and
 * one on the command line, the verdicts follow the command line's.
 */

import { testSelections } from './playwright-args.ts';

export interface GrepSelection {
  readonly grep?: RegExp;
  readonly grepInvert?: RegExp;
}

/** As Playwright's forceRegExp: `/source/flags` (flags g and i only), else the text, case-insensitive. */
function titleRegExp(pattern: string): RegExp {
  const match = /^\/(.*)\/([gi]*)$/.exec(pattern);
  return match ? new RegExp(match[1] ?? '', match[2]) : new RegExp(pattern, 'gi');
}

/** The selection of a `playwright test` command line; none for any other command. */
export function playwrightGrep(argv: readonly string[] = process.argv): GrepSelection {
  const last = (...flags: string[]) =>
    testSelections(argv).findLast((s) => s.flag !== undefined && flags.includes(s.flag))?.value;
  const grep = last('--grep', '-g');
  const grepInvert = last('--grep-invert', '-G');
  return {
    ...(grep === undefined ? {} : { grep: titleRegExp(grep) }),
    ...(grepInvert === undefined ? {} : { grepInvert: titleRegExp(grepInvert) }),
  };
}
