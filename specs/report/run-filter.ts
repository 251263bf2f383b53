/**
 * What a run started without the CLI selected, read from `playwright test`'s own arguments, so a rule it left
 * out is reported as filtered out by that — `--project e2e`, `--grep …`, a file argument — never as "no test
 * in this suite version checks this rule" (issue #40).
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

/** `--project e2e --grep @rule:x tests/a.spec.ts` from `playwright test`'s argv; undefined when none. */
export function runFilterFromArgv(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('test');
  if (at === -1) return undefined;
  const parts: string[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('-') && eq !== -1 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('-') && eq !== -1 ? arg.slice(eq + 1) : undefined;
    if (FILTERS.includes(flag)) parts.push(`${flag} ${inline ?? argv[++i] ?? ''}`);
    else if (SWITCHES.includes(flag)) parts.push(flag);
    else if (VALUED.includes(flag)) {
      if (inline === undefined && !(flag === '--update-snapshots' || flag === '-u')) i++;
    } else if (!arg.startsWith('-')) parts.push(arg);
  }
  return parts.length ? parts.join(' ') : undefined;
}
