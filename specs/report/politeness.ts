/**
 * One line on the cost of politeness, for the console, summary.md and the HTML page (specs/run/politeness.ts).
 * A pace is one counter's — the whole client address, one route, one identity — so the line names the counter
 * of each pace it gives, how many of the run's requests went through it and how long they take at that pace,
 * the longest first: the counter that decided a paced run's wall time.
 */
import { longestAtPace, secondsAtPace } from '../run/politeness.ts';
import { counterLabel } from '../run/scopes.ts';
import type { ConformanceReport } from './model.ts';

/** Counters named one by one; the rest are counted. */
const SHOWN_COUNTERS = 3;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString('en-US');

export function politenessLine(report: ConformanceReport): string | undefined {
  const p = report.run.politeness;
  if (p === undefined) return undefined;
  const reasons = Object.entries(p.reasons)
    .map(([why, n]) => `${n} × ${why}`)
    .join(', ');
  const within = p.elapsedMs === undefined ? '' : ` in ${seconds(p.elapsedMs)}`;
  const parts = [
    `${count(p.requests)} requests sent${within}`,
    `${p.limitedAnswers} limited answers met${reasons ? ` (${reasons})` : ''}`,
    `${seconds(p.waitedMs)} waiting, slowest wait ${seconds(p.slowestWaitMs)}`,
  ];
  // Longest at its pace first: the first named is the counter that decided the run's wall time.
  const paced = longestAtPace(p.counters ?? []);
  if (p.counters === undefined) {
    // A report from before the scheduler kept counters: its one figure was the slowest counter's pace.
    if (p.pacePerSecond !== undefined)
      parts.push(`slowest pace ${p.pacePerSecond} requests/s (one counter's)`);
  } else if (paced.length === 0) parts.push('no pace in force');
  else {
    const shown = paced
      .slice(0, SHOWN_COUNTERS)
      .map(
        (c) =>
          `${counterLabel(c.counter)} ${c.pacePerSecond} requests/s (${count(c.requests)} requests, ≈ ${Math.round(secondsAtPace(c) ?? 0)} s)`,
      );
    const more = paced.length > SHOWN_COUNTERS ? `, ${paced.length - SHOWN_COUNTERS} more counters` : '';
    const rest = paced.some((c) => c.counter === 'address') ? '' : '; any other request unpaced';
    parts.push(`paced per counter, longest at its pace first: ${shown.join(', ')}${more}${rest}`);
  }
  if (p.key !== undefined) parts.push(p.key.summary);
  for (const note of p.notes ?? []) parts.push(note);
  return parts.join(' · ');
}
