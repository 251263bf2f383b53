/**
 * The cost of politeness, as the report shows it (conformance.json `run.politeness`; one line in the console,
 * summary.md and the HTML page: specs/report/politeness.ts): what the run's scheduler sent, met and waited,
 * the pace in force per counter — a pace is always one counter's (one route, one identity, the whole
 * address), never the run's — and what it learned about the key the target counts by.
 */
import type { LearnedKey } from './key-model.ts';
import { counterLabel, covers, type RateKey } from './scopes.ts';

/** One counter the scheduler kept. */
export interface CounterPace {
  /** `address`, `endpoint /protected`, `identity admin`, `other`… (specs/run/scopes.ts). */
  readonly counter: string;
  readonly requests: number;
  readonly limited: number;
  /** The pace in force at the end (requests/s); absent: unpaced. */
  readonly pacePerSecond?: number;
  /** The pace the declared limit allows it; absent: no declared limit governs it. */
  readonly declaredPerSecond?: number;
}

/**
 * A declared limit the target keeps lower (specs/run/coordinator.ts seeOverDeclared): a limited answer within the
 * declared pace, after clearly fewer requests in the window than declared.
 */
export interface OverDeclared {
  /** The declared limit's label (`rateLimit`'s figures, or a list entry's name). */
  readonly limit: string;
  /** The counter it limited (`address`, `identity user`, …). */
  readonly counter: string;
  /** The requests of that counter the target let through within the window before limiting: the median over the events. */
  readonly requests: number;
  /** The limiting events that said so. */
  readonly events: number;
  readonly declared: number;
  readonly windowSeconds: number;
  /** The limit the target's limited answers stated (X-RateLimit-Limit, RateLimit-Policy), where the key is not declared. */
  readonly stated?: number;
}

/** What the run knows about the key the target counts its limit per. */
export interface KeyReport {
  /** The profile's `rateLimit.key`; absent: not declared. */
  readonly declared?: RateKey;
  /** The keys whose counters were paced at the end. */
  readonly inForce: readonly RateKey[];
  /** Keys added because a limited answer said so, with the evidence. */
  readonly learned: readonly LearnedKey[];
  /** One sentence for people: what was declared, what the traffic said, what to write in the profile. */
  readonly summary: string;
}

export interface Politeness {
  readonly requests: number;
  readonly limitedAnswers: number;
  /** Wall time during which the run was paused by limited answers or a rate-limit rule's window. */
  readonly waitedMs: number;
  readonly slowestWaitMs: number;
  /** From the scheduler's start to the report: the run's requests went out in this long. */
  readonly elapsedMs?: number;
  /** The slowest pace in force at the end (requests/s) over every counter, where there was one. */
  readonly pacePerSecond?: number;
  /** Limited answers by why they counted (`429`, `403 with Retry-After`, …). */
  readonly reasons: Readonly<Record<string, number>>;
  /** Each counter with a pace, or with limited answers, busiest first. */
  readonly counters?: readonly CounterPace[];
  /** Where a limit is declared: the key, declared and learned (under several limits, the summary names each). */
  readonly key?: KeyReport;
  /** What the traffic said that the profile did not (a declared limit that looks too high, …). */
  readonly notes?: readonly string[];
  /** Declared limits the target kept lower, with the evidence. */
  readonly overDeclared?: readonly OverDeclared[];
}

export interface TargetPoliteness {
  readonly declared:
    | { readonly limit: number; readonly windowSeconds: number; readonly key?: RateKey }
    | undefined;
  readonly enforced: readonly RateKey[];
  readonly learned: readonly LearnedKey[];
  readonly notes: readonly string[];
  readonly overDeclared?: readonly OverDeclared[];
  readonly requests: number;
  readonly limited: number;
  readonly waitedMs: number;
  readonly slowestWaitMs: number;
  readonly elapsedMs: number;
  readonly reasons: Readonly<Record<string, number>>;
  readonly counters: readonly CounterPace[];
  /** Under several declared limits: each one's key, declared and learned. */
  readonly limits?: readonly {
    readonly label: string;
    readonly declared: { readonly key?: RateKey } | undefined;
    readonly enforced: readonly RateKey[];
    readonly learned: readonly LearnedKey[];
  }[];
}

const KEY_WORDS: Readonly<Record<RateKey, string>> = {
  address: 'per client address',
  endpoint: 'per route',
  identity: 'per identity',
  credential: 'per credential',
};

/**
 * The coarser keys every one of `learned`'s limited answers fits too (LearnedKey.alsoFits, less those the traffic
 * refuted): the run added the finest key, and cannot tell the target does not count by these.
 */
function fitToo(learned: readonly LearnedKey[]): RateKey[] {
  const [first, ...rest] = learned;
  return [...new Set(first?.alsoFits?.map((f) => f.key) ?? [])].filter((k) =>
    rest.every((l) => l.alsoFits?.some((f) => f.key === k) === true),
  );
}

/**
 * "declared key identity; the target limits per route — add `key: "endpoint"`", or what the run went by when
 * nothing contradicted the declaration.
 */
export function keySummary(
  declared: RateKey | undefined,
  inForce: readonly RateKey[],
  learned: readonly LearnedKey[],
): string {
  // A key learned first and covered by one learned later (`endpoint`, then `address`: the first limited answers
  // came from one route) is not what the target counts by: the coarser one explains them all.
  const all = [...new Set(learned.map((l) => l.key))];
  const added = all.filter((k) => !all.some((other) => other !== k && covers(other, k)));
  const words = (keys: readonly RateKey[]) => keys.map((k) => KEY_WORDS[k]).join(' and ');
  const advice = (keys: readonly RateKey[]) => {
    const key = keys.includes('address') ? 'address' : keys[0];
    return `add \`key: "${key}"\` to rateLimit`;
  };
  if (added.length > 0) {
    const evidence = learned.find((l) => added.includes(l.key));
    const seen =
      evidence === undefined
        ? ''
        : ` (limited after ${evidence.requests} requests of ${counterLabel(evidence.counter)} within ${Math.round(evidence.spanMs) / 1000} s)`;
    const fits = fitToo(learned.filter((l) => added.includes(l.key)));
    const said =
      fits.length === 0
        ? `the target limits ${words(added)}${seen} — ${advice(added)}`
        : `the target limits ${words(added)}, or ${fits.map((k) => KEY_WORDS[k]).join(' or ')}: its limited answers ` +
          `fit ${fits.length === 1 ? 'both' : 'each'}${seen} — ${advice(added)}, or ` +
          `${fits.map((k) => `\`key: "${k}"\``).join(' or ')} if it counts so`;
    return declared === undefined ? `key not declared; ${said}` : `declared key ${declared}; ${said}`;
  }
  return declared === undefined
    ? `key not declared: paced ${words(inForce)} (no limited answer said otherwise) — declare \`key\` if you know it`
    : `declared key ${declared}: no limited answer contradicted it`;
}

const byRequests = (a: CounterPace, b: CounterPace) => b.requests - a.requests || b.limited - a.limited;

/** Most counters the report lists. */
const MAX_COUNTERS = 200;

export function politenessOf(targets: readonly TargetPoliteness[]): Politeness {
  let requests = 0;
  let limitedAnswers = 0;
  let waitedMs = 0;
  let slowestWaitMs = 0;
  let elapsedMs = 0;
  const reasons: Record<string, number> = {};
  const counters: CounterPace[] = [];
  const notes: string[] = [];
  const overDeclared: OverDeclared[] = [];
  let key: KeyReport | undefined;
  for (const t of targets) {
    requests += t.requests;
    limitedAnswers += t.limited;
    waitedMs += t.waitedMs;
    slowestWaitMs = Math.max(slowestWaitMs, t.slowestWaitMs);
    elapsedMs = Math.max(elapsedMs, t.elapsedMs);
    for (const [k, v] of Object.entries(t.reasons)) reasons[k] = (reasons[k] ?? 0) + v;
    counters.push(...t.counters.filter((c) => c.pacePerSecond !== undefined || c.limited > 0));
    notes.push(...t.notes, ...(t.overDeclared ?? []).map(overDeclaredNote));
    overDeclared.push(...(t.overDeclared ?? []));
    // One run checks one target but for the project's mutation runs: the first with a declared limit speaks.
    if (key === undefined && t.declared !== undefined) {
      key = {
        ...(t.declared.key === undefined ? {} : { declared: t.declared.key }),
        inForce: t.enforced,
        learned: t.learned,
        summary:
          t.limits === undefined
            ? keySummary(t.declared.key, t.enforced, t.learned)
            : t.limits
                .map((l) => `${l.label}: ${keySummary(l.declared?.key, l.enforced, l.learned)}`)
                .join('; '),
      };
    }
  }
  const paces = counters.map((c) => c.pacePerSecond).filter((p): p is number => p !== undefined);
  return {
    requests,
    limitedAnswers,
    waitedMs: Math.round(waitedMs),
    slowestWaitMs: Math.round(slowestWaitMs),
    elapsedMs: Math.round(elapsedMs),
    ...(paces.length === 0 ? {} : { pacePerSecond: round(Math.min(...paces)) }),
    reasons,
    // The busiest: under a key per credential every fuzz case's credential is a counter of its own.
    counters: counters
      .sort(byRequests)
      .slice(0, MAX_COUNTERS)
      .map((c) => ({
        ...c,
        ...(c.pacePerSecond === undefined ? {} : { pacePerSecond: round(c.pacePerSecond) }),
        ...(c.declaredPerSecond === undefined ? {} : { declaredPerSecond: round(c.declaredPerSecond) }),
      })),
    ...(key === undefined ? {} : { key }),
    ...(notes.length === 0 ? {} : { notes }),
    ...(overDeclared.length === 0 ? {} : { overDeclared }),
  };
}

/** The report's note for a limit the target kept lower than declared, with what to declare instead. */
export function overDeclaredNote(o: OverDeclared): string {
  return `${o.limit}: the target let ${o.requests} requests of ${counterLabel(o.counter)} through within ${o.windowSeconds} s before limiting (the median of ${o.events} limiting ${o.events === 1 ? 'event' : 'events'}${o.stated === undefined ? '' : `, whose answers state a limit of ${o.stated}`}), where ${o.declared} are declared — it keeps a lower limit: declare about ${o.requests} (each limited answer was waited out)`;
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** How long a paced counter's requests take at its pace (s); undefined for an unpaced one. */
export function secondsAtPace(c: CounterPace): number | undefined {
  return c.pacePerSecond === undefined || c.pacePerSecond <= 0 ? undefined : c.requests / c.pacePerSecond;
}

/**
 * The paced counters, the one whose requests take longest at its pace first: the first is the counter that
 * decides a paced run's wall time (every request of it waits for its slot), whatever its number of requests.
 */
export function longestAtPace(counters: readonly CounterPace[]): CounterPace[] {
  return counters
    .filter((c) => secondsAtPace(c) !== undefined)
    .sort((a, b) => (secondsAtPace(b) as number) - (secondsAtPace(a) as number) || b.requests - a.requests);
}
