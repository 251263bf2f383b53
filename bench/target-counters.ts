/**
 * The target's own counters after a politeness run, read from the mock's request journal (mock/control/journal.ts:
 * each entry's `limitKey` is the key the route's limit counted the request under — `id:<identity>`,
 * `ip:<address>`, a credential's digest). The least time a limit allows is computed from these, not from the
 * run's counters: the run's model of the key is what the bench measures, and must not also be its yardstick.
 */
import type { JournalEntry } from '../mock/control/journal.ts';
import type { MockProcessConfig } from './mock-process.ts';

/** Enough for any politeness run (the default run sends ≈ 3,400 requests). */
const JOURNAL_SIZE = 50_000;
const CONTROL_TOKEN = 'polite-bench-control';

/** The mock's settings with a journal that holds the whole run and a control token the bench knows. */
export function withJournal(config: MockProcessConfig): MockProcessConfig {
  return { ...config, control: { token: CONTROL_TOKEN, journalSize: JOURNAL_SIZE } };
}

/** The mock's journal: every request it answered, oldest first (mock/control/journal.ts). */
export async function journalEntries(mockUrl: string): Promise<readonly JournalEntry[]> {
  const res = await fetch(`${mockUrl}/__gatecheck/journal?limit=${JOURNAL_SIZE}`, {
    headers: { authorization: `Bearer ${CONTROL_TOKEN}` },
  });
  if (!res.ok) throw new Error(`the mock's journal: ${res.status}`);
  const body = (await res.json()) as { entries?: readonly JournalEntry[] };
  return body.entries ?? [];
}

/**
 * Requests per rate-limit key of the mock: the key its route's limit counted each under (the journal's
 * `limitKey`; a 400 or 401 a per-identity limit leaves to its failed-attempt limit has none).
 */
export async function journalCounters(mockUrl: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { limitKey } of await journalEntries(mockUrl)) {
    if (limitKey !== undefined) counts.set(limitKey, (counts.get(limitKey) ?? 0) + 1);
  }
  return counts;
}

/** The busiest counter's requests. */
export const busiest = (counts: ReadonlyMap<string, number>): number => Math.max(0, ...counts.values());
