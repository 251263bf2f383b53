/**
 * A Playwright reporter for the mutation run's child (tests/mutation/mutation.config.ts): prints a progress
 * line to stdout as each target's tests are done (harness/progress.ts), so a run of a few minutes is not
 * silent. harness/run.ts forwards the child's stdout.
 */
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { targetOfProject } from './manifest.ts';
import { MutationProgress } from './progress.ts';

export default class ProgressReporter implements Reporter {
  #progress: MutationProgress | undefined;

  onBegin(config: FullConfig, suite: Suite): void {
    // The root suite's children are the projects, one per target.
    const tests = new Map<string, number>();
    for (const project of suite.suites) {
      const target = targetOfProject(project.title);
      tests.set(target, (tests.get(target) ?? 0) + project.allTests().length);
    }
    this.#progress = new MutationProgress(tests);
    this.#print(this.#progress.start(config.workers));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name;
    const target = project === undefined ? undefined : targetOfProject(project);
    if (target === undefined || this.#progress === undefined) return;
    const failed = result.status !== 'passed' && result.status !== 'skipped';
    const rule = test.tags.map((tag) => /^@?rule:(.+)$/.exec(tag)?.[1]).find((id) => id !== undefined);
    const line = this.#progress.testEnded(target, failed ? (rule ?? '(no rule)') : undefined);
    if (line !== undefined) this.#print(line);
  }

  printsToStdio(): boolean {
    return true;
  }

  #print(line: string): void {
    process.stdout.write(`${line}\n`);
  }
}
