/**
 * One token per identity for the whole run, refreshed before it expires, with single-flight refresh: however
 * many workers ask at once, one request goes to the token endpoint per identity per lifetime.
 */
import type { FetchedToken } from './fetch-token.ts';

export interface CachedToken {
  readonly token: string;
  /** Epoch ms after which callers must ask again; undefined: for the whole run. */
  readonly refreshAt: number | undefined;
}

/**
 * When to fetch again: a quarter of the lifetime early, at most a minute — room for the request and clock
 * skew, so a token is never sent in its last moments (RFC 6749 §5.1 `expires_in` counts from the answer).
 */
export function refreshAt(fetchedAt: number, expiresIn: number | undefined): number | undefined {
  if (expiresIn === undefined) return undefined;
  const lifetimeMs = expiresIn * 1000;
  return fetchedAt + lifetimeMs - Math.min(60_000, lifetimeMs / 4);
}

export class TokenCache {
  readonly #entries = new Map<string, CachedToken>();
  readonly #inflight = new Map<string, Promise<CachedToken>>();
  readonly #issued = new Set<string>();

  constructor(
    private readonly fetch: (identity: string) => Promise<FetchedToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The identity's current token, fetching it first when there is none or it is due for refresh. */
  get(identity: string): Promise<CachedToken> {
    const entry = this.#entries.get(identity);
    if (entry !== undefined && (entry.refreshAt === undefined || this.now() < entry.refreshAt)) {
      return Promise.resolve(entry);
    }
    let pending = this.#inflight.get(identity);
    if (pending === undefined) {
      const started = this.now();
      pending = this.fetch(identity)
        .then((fetched) => {
          const fresh = { token: fetched.token, refreshAt: refreshAt(started, fetched.expiresIn) };
          this.#entries.set(identity, fresh);
          this.#issued.add(fetched.token);
          return fresh;
        })
        .finally(() => this.#inflight.delete(identity));
      this.#inflight.set(identity, pending);
    }
    return pending;
  }

  /** Every token fetched in this run, current or replaced: what the reports must never contain. */
  issued(): string[] {
    return [...this.#issued];
  }
}
