/**
 * The request journal: the last N requests, in a ring buffer of fixed size (oldest overwritten), read through
 * `GET /__gatecheck/journal`. Each entry says what was asked, what was answered, who asked, and — when the
 * answer was a refusal or a fault — why, as a stable code and a sentence:
 *   codes of mock/auth (missing, malformed, jwt_expired, jwt_alg_not_allowed, jwt_claim_invalid, …),
 *   host_invalid, expectation_unmet, insufficient_role, insufficient_scope, closed_route, ip_blocked,
 *   geo_blocked, rate_limited, banned, fault_injected.
 * Never the credential: the Authorization value is not read here, the query string is not kept (tokens get
 * put there), and the reasons come from the auth contract, which keeps them credential-free.
 */

export interface JournalEntry {
  /** The mock clock's reading for the request, ISO 8601. */
  readonly time: string;
  readonly method: string;
  /** Request path without the query string, as received, at most 512 characters. */
  readonly path: string;
  /** The status answered; 0 when the connection was dropped without an answer. */
  readonly status: number;
  /** The verified identity, when credentials were verified. */
  readonly identity?: string;
  /** The rate-limit key (`id:<identity>` or `ip:<address>`), or `ip:<address>` when no limit applied. */
  readonly client: string;
  /**
   * The key the route's rate limit counted the request under (absent: none did — no group, or answered before
   * it). Usually `client`; for a 400 or 401 counted against the failed-attempt limit too, `client` is that one's.
   */
  readonly limitKey?: string;
  readonly outcome?: string;
  readonly reason?: string;
}

/** What the pipeline hands over per request; the ISO time is only built when someone reads the journal. */
export interface JournalRecord {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly identity: string | undefined;
  readonly client: string;
  readonly limitKey: string | undefined;
  readonly outcome: string | undefined;
  readonly reason: string | undefined;
}

export interface JournalQuery {
  /** Newest entries only, at most this many. */
  readonly limit?: number;
  readonly status?: number;
  readonly outcome?: string;
}

const MAX_PATH = 512;

export class Journal {
  readonly #ring: Array<JournalRecord | undefined>;
  #next = 0;
  #total = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new TypeError('Journal: capacity must be an integer ≥ 1');
    this.#ring = new Array<JournalRecord | undefined>(capacity).fill(undefined);
  }

  /** Requests recorded since start or the last clear, including those overwritten since. */
  get total(): number {
    return this.#total;
  }

  record(entry: JournalRecord): void {
    this.#ring[this.#next] =
      entry.path.length > MAX_PATH ? { ...entry, path: entry.path.slice(0, MAX_PATH) } : entry;
    this.#next = (this.#next + 1) % this.capacity;
    this.#total++;
  }

  /** Oldest first. */
  entries(query: JournalQuery = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const held = Math.min(this.#total, this.capacity);
    for (let i = 0; i < held; i++) {
      const record = this.#ring[(this.#next - held + i + this.capacity) % this.capacity] as JournalRecord;
      if (query.status !== undefined && record.status !== query.status) continue;
      if (query.outcome !== undefined && record.outcome !== query.outcome) continue;
      out.push(toEntry(record));
    }
    return query.limit === undefined || out.length <= query.limit ? out : out.slice(out.length - query.limit);
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#next = 0;
    this.#total = 0;
  }
}

function toEntry(r: JournalRecord): JournalEntry {
  return {
    time: new Date(r.at).toISOString(),
    method: r.method,
    path: r.path,
    status: r.status,
    ...(r.identity === undefined ? {} : { identity: r.identity }),
    client: r.client,
    ...(r.limitKey === undefined ? {} : { limitKey: r.limitKey }),
    ...(r.outcome === undefined ? {} : { outcome: r.outcome }),
    ...(r.reason === undefined ? {} : { reason: r.reason }),
  };
}
