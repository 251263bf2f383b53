/**
 * What a run started without the CLI selected, read from `playwright test`'s own arguments, so a rule it left
 * out is reported as filtered out by that — `--project e2e`, `--grep …`, a file argument — never as "no test
 * in this suite version checks this rule" (issue #40).
 */
import { testSelections } from '../setup/playwright-args.ts';

/** `--project e2e --grep @rule:x tests/a.spec.ts` from `playwright test`'s argv; undefined when none. */
export function runFilterFromArgv(argv: readonly string[]): string | undefined {
  const parts = testSelections(argv).map((s) =>
    s.flag === undefined ? (s.value as string) : s.value === undefined ? s.flag : `${s.flag} ${s.value}`,
  );
  return parts.length ? parts.join(' ') : undefined;
}
