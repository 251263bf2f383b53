/**
 * No masking (issue #67): where a rule's probes span several classes — the scheme word's letter case and the key
 * parameter name's, runs of spaces and whitespace around "=" — a failure in one class does not stop the others.
 * Each class runs to its end; every failing class attaches its own counterexample (verify.ts `fail` attaches the
 * evidence before it throws), and one violation naming every failing class is thrown after the last.
 */
import { RuleViolation } from './verify.ts';

export interface ProbeClass {
  /** What the class varies, for the combined message: `the scheme word's letter case`. */
  readonly label: string;
  readonly run: () => Promise<void>;
}

export async function judgeEachClass(classes: readonly ProbeClass[]): Promise<void> {
  const failed: { label: string; violation: RuleViolation }[] = [];
  for (const c of classes) {
    try {
      await c.run();
    } catch (error) {
      // Only a verdict is kept for later; a skip, a budget or a broken check stops the test as it would.
      if (!(error instanceof RuleViolation)) throw error;
      failed.push({ label: c.label, violation: error });
    }
  }
  const [first, ...more] = failed;
  if (first === undefined) return;
  if (more.length === 0) throw first.violation;
  const message = [
    `${failed.length} classes of ${classes.length} fail, each with its counterexample:`,
    ...failed.map((f) => `— ${f.label}:\n${f.violation.message}`),
  ].join('\n');
  throw new RuleViolation(first.violation.rule, first.violation.evidence, message);
}
