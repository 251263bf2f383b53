/**
 * The polite requester behind `--probe` (issue #69): GETs only (RFC 9110 §9.2.1: safe, they change nothing
 * on the target), never a body, only under the given base URL, one after the other with a pause between two
 * and a timeout each, at most PROBE_LIMIT in all. Every request sent is kept, to be printed; the same request
 * is sent once and its answer reused. After a request gets no answer at all, nothing more is sent.
 */
export const PROBE_LIMIT = 30;
const PACE_MS = 100;
const TIMEOUT_MS = 5_000;

export interface ProbeRequest {
  /** The path under the base URL (`/users/me`), as the profile writes it. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Who asks, for the printed line: `no credentials`, `user, bearer from GATECHECK_USER_BEARER`. */
  readonly as: string;
}

export interface ProbeAnswer {
  /** `GET /users/me (no credentials)`. */
  readonly request: string;
  /** The status, or undefined when nothing answered (`error` says why). */
  readonly status: number | undefined;
  readonly error: string | undefined;
}

export interface ProberOptions {
  readonly limit?: number;
  readonly paceMs?: number;
  readonly timeoutMs?: number;
}

export class Prober {
  /** Every request sent, in order, with its answer. */
  readonly sent: ProbeAnswer[] = [];
  private readonly base: URL;
  private readonly cache = new Map<string, ProbeAnswer>();
  private silence: string | undefined;
  private readonly limit: number;
  private readonly paceMs: number;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, options: ProberOptions = {}) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    this.limit = options.limit ?? PROBE_LIMIT;
    this.paceMs = options.paceMs ?? PACE_MS;
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  }

  /** Why nothing more is sent, or undefined: the budget is spent, or the target stopped answering. */
  get stopped(): string | undefined {
    if (this.silence !== undefined) return this.silence;
    return this.sent.length >= this.limit
      ? `the probe's budget of ${this.limit} requests is spent`
      : undefined;
  }

  /** One GET, or undefined when it may not be sent (outside the base URL, budget spent, no answer before). */
  async get(request: ProbeRequest): Promise<ProbeAnswer | undefined> {
    const url = new URL(request.path.replace(/^\/+/, ''), this.base);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    // Only under the base URL: a path that climbs out of it (`..`, another origin) is not asked.
    if (url.origin !== this.base.origin || !url.pathname.startsWith(this.base.pathname)) return undefined;
    const line = `GET ${url.pathname}${url.search} (${request.as})`;
    const key = `${line} ${JSON.stringify(request.headers ?? {})}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    if (this.stopped !== undefined) return undefined;
    if (this.sent.length > 0) await new Promise((resolve) => setTimeout(resolve, this.paceMs));
    let answer: ProbeAnswer;
    try {
      const response = await fetch(url, {
        method: 'GET',
        headers: { ...request.headers },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body?.cancel();
      answer = { request: line, status: response.status, error: undefined };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      answer = {
        request: line,
        status: undefined,
        error: `${(error as Error).name}${cause ? ` ${cause}` : ''}`,
      };
      this.silence = `${url.origin} gave no answer (${answer.error})`;
    }
    this.sent.push(answer);
    this.cache.set(key, answer);
    return answer;
  }
}
