/**
 * The target's own counters after a politeness run, read from the mock's request journal (mock/control/journal.ts:
 * each entry's `client` is the rate-limit key the mock counted the request under — `id:<identity>`,
 * `ip:<address>`, a credential's digest). The least time a limit allows is computed from these, not from the
 * run's counters: the run's model of the key is what the bench measures, and must not also be its yardstick.
 */
import type { MockProcessConfig } from './mock-process.ts';

/** Enough for any politeness run (the default run sends ≈ 3,400 requests). */
const JOURNAL_SIZE = 50_000;
const CONTROL_TOKEN = 'polite-bench-control';

/** The mock's settings with a journal that holds the whole run and a control token the bench knows. */
export function withJournal(config: MockProcessConfig): MockProcessConfig {
  return { ...config, control: { token: CONTROL_TOKEN, journalSize: JOURNAL_SIZE } };
}

interface Entry {
  readonly status: number;
  readonly client: string;
  readonly counted?: true;
}

/**
 * Requests per rate-limit key of the mock — those a limit counted (the journal's `counted`) — leaving out the
 * entries `skip` names (e.g. the 400 and 401 a
 * per-identity limit does not count: mock/pipeline/rate-limit.ts counts those as failed attempts, under a limit
 * of their own).
 */
export async function journalCounters(
  mockUrl: string,
  skip: (entry: Entry) => boolean = () => false,
): Promise<Map<string, number>> {
  const res = await fetch(`${mockUrl}/__gatecheck/journal?limit=${JOURNAL_SIZE}`, {
    headers: { authorization: `Bearer ${CONTROL_TOKEN}` },
  });
  if (!res.ok) throw new Error(`the mock's journal: ${res.status}`);
  const body = (await res.json()) as { entries?: readonly Entry[] };
  const counts = new Map<string, number>();
  for (const e of body.entries ?? []) {
    if (e.counted !== true || skip(e)) continue;
    counts.set(e.client, (counts.get(e.client) ?? 0) + 1);
  }
  return counts;
}

/** The busiest counter's requests. */
export const busiest = (counts: ReadonlyMap<string, number>): number => Math.max(0, ...counts.values());
