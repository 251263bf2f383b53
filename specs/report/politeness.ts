/** One line on the cost of politeness, for the console, summary.md and the HTML page (specs/run/coordinator.ts). */
import type { ConformanceReport } from './model.ts';

export function politenessLine(report: ConformanceReport): string | undefined {
  const p = report.run.politeness;
  if (p === undefined) return undefined;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const reasons = Object.entries(p.reasons)
    .map(([why, n]) => `${n} × ${why}`)
    .join(', ');
  return (
    `${p.requests} requests sent · ${p.limitedAnswers} limited answers met${reasons ? ` (${reasons})` : ''} · ` +
    `${seconds(p.waitedMs)} waiting, slowest wait ${seconds(p.slowestWaitMs)}` +
    `${p.pacePerSecond === undefined ? '' : ` · paced at ${p.pacePerSecond} requests/s`}`
  );
}
