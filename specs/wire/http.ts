/**
 * The suite's HTTP client: Node's own (node:http / node:https, the fuzz engine's client too), inside the
 * profile's budget, turning every request/response pair into an `Exchange` the verifiers judge and the
 * evidence records. Field lines go out as written, a repeated name as repeated lines (which a record of
 * headers cannot express); bodies byte for byte; redirects are not followed (a 3xx is an answer to judge) and
 * no status throws. Playwright's APIRequestContext is not used here: each of its calls is a protocol round
 * trip and a Playwright step with a captured stack, about a second of CPU per default run for nothing the
 * checks read (docs/performance.md).
 * Every request goes out in a slot of the run's scheduler (specs/run/scheduler.ts): a rate-limited answer is
 * waited out and the request re-sent, so a check only ever judges an answer that is not rate limiting.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { test } from '@playwright/test';
import { createRawSocketClient } from '../fuzz/clients/raw-socket.ts';
import type { Client } from '../fuzz/clients/types.ts';
import { Budget } from '../lib/budget.ts';
import { keepAliveRaced, resendable } from '../lib/keep-alive-race.ts';
import type { ReplayRequest } from '../lib/replay.ts';
import { wireTarget } from '../lib/request-target.ts';
import { redactText } from '../lib/secrets.ts';
import type { NodeTlsOptions } from '../lib/tls.ts';
import { RunBudgetExhausted, type Scheduler, type SendOptions } from '../run/scheduler.ts';
import { TestOutOfTime } from '../run/test-clock.ts';

/** Sent unless a check sets its own: some gateways refuse a request without one. */
const USER_AGENT = 'gatecheck';

/** How many times the worker's in-flight cap a burst that provokes the limit may use. */
const PROVOKING_CONCURRENCY = 4;

export interface Request {
  /** Upper-cased before it is sent (RFC 9110 §9.1: the standard methods are upper-case), unless `exactMethod`. */
  readonly method?: string;
  /**
   * Send `method` as written, a lower-case `get` too (method names are case-sensitive, RFC 9110 §9.1). Node's
   * client upper-cases every method, so such a request goes out over a raw socket
   * (specs/fuzz/clients/raw-socket.ts), with its Authorization field lines only and no body.
   */
  readonly exactMethod?: boolean;
  /**
   * Path (with query) relative to the base URL, starting with '/'. Sent as written — dot segments, doubled
   * slashes, `#`, percent-encoding untouched — when every octet is printable ASCII (specs/lib/request-target.ts).
   */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON with `Content-Type: application/json`. */
  readonly json?: unknown;
  readonly body?: string;
}

export interface Exchange {
  readonly request: ReplayRequest;
  readonly status: number;
  /** Lower-case names; repeated fields joined with ', ' (RFC 9110 §5.3). */
  readonly headers: Readonly<Record<string, string>>;
  readonly headerLines: readonly (readonly [string, string])[];
  readonly body: string;
  readonly ms: number;
}

/** Every field line of `name` in the response (case-insensitive). */
export function headerValues(ex: Exchange, name: string): string[] {
  const lower = name.toLowerCase();
  return ex.headerLines.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/** The request never got an answer (refused, reset, timed out). The message carries no credential. */
export class TargetError extends Error {
  readonly code = 'ERR_GATECHECK_TARGET';
  constructor(
    message: string,
    readonly request: ReplayRequest,
    /** No answer within `budget.timeoutMs`: a clock, not an answer — the check is skipped, never failed. */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'TargetError';
  }
}

export interface TargetOptions {
  readonly baseUrl: string;
  /** CA, client certificate, insecure switch (specs/lib/tls.ts). */
  readonly tls?: NodeTlsOptions;
  readonly budget: Budget;
  readonly scheduler: Scheduler;
  readonly timeoutMs: number;
  /** Sees every answer, limited ones waited out included (the observers, specs/observe/). */
  readonly observe?: (ex: Exchange) => void;
  /**
   * An Authorization value as it should be sent now: a token obtained at run time that came due while the
   * run waited out a limit is swapped for its identity's current one (specs/credentials/client.ts).
   */
  readonly refreshAuthorization?: (value: string) => Promise<string>;
}

export class Target {
  readonly baseUrl: string;
  readonly budget: Budget;
  readonly scheduler: Scheduler;
  readonly timeoutMs: number;
  readonly tls: NodeTlsOptions | undefined;
  /**
   * In-flight cap of the requests that provoke the limit on purpose (the rate-limit rules' burst): a few times
   * the worker's, so the burst outruns a limit that is low for the whole run but not for one window.
   */
  private readonly provokingBudget: Budget;
  private readonly observe: ((ex: Exchange) => void) | undefined;
  private readonly refreshAuthorization: ((value: string) => Promise<string>) | undefined;
  /** For the methods Node's client would rewrite (`exactMethod`); made on first use. */
  private rawSocket: Client | undefined;

  constructor(options: TargetOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.budget = options.budget;
    this.scheduler = options.scheduler;
    this.provokingBudget = new Budget(options.budget.concurrency * PROVOKING_CONCURRENCY);
    this.timeoutMs = options.timeoutMs;
    this.tls = options.tls;
    this.observe = options.observe;
    this.refreshAuthorization = options.refreshAuthorization;
  }

  /** Joins without `new URL(path, base)`, which would drop a base path such as https://host/api. */
  url(path: string): string {
    if (!path.startsWith('/')) throw new TypeError(`path must start with '/': ${path}`);
    return `${this.baseUrl}${path}`;
  }

  private prepare(req: Request, extraLines: readonly (readonly [string, string])[] = []): ReplayRequest {
    const lines: [string, string][] = Object.entries(req.headers ?? {});
    let body = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      if (!lines.some(([n]) => n.toLowerCase() === 'content-type'))
        lines.push(['Content-Type', 'application/json']);
    }
    return {
      method: req.exactMethod ? (req.method ?? 'GET') : (req.method ?? 'GET').toUpperCase(),
      url: this.url(req.path),
      headerLines: [...lines, ...extraLines],
      ...(body === undefined ? {} : { body }),
    };
  }

  private unreachable(e: unknown, request: ReplayRequest): TargetError {
    // The overall timeout aborts the request (AbortSignal.timeout): say so rather than "operation aborted".
    const name = (e as Error)?.name;
    const timedOut = name === 'AbortError' || name === 'TimeoutError';
    // Keep the first line of the error and redact anything that looks like a credential in it.
    const first = timedOut
      ? `timed out after ${this.timeoutMs} ms`
      : (String((e as Error)?.message ?? e).split('\n')[0] ?? '');
    const text = first.replace(/(authorization:\s*)(\S+)(\s+)?(\S+)?/gi, '$1$2 …[redacted]');
    return new TargetError(
      redactText(`no answer from ${request.method} ${request.url}: ${text}`, request.headerLines),
      request,
      timedOut || /^timed out after/.test(first),
    );
  }

  /**
   * Runs one request in a slot of the run's scheduler and inside this worker's in-flight cap; when the run's
   * budget cannot afford it (or the wait a rate-limited answer asks for) the running test is skipped, saying why.
   */
  private async budgeted(
    request: ReplayRequest,
    send: (request: ReplayRequest) => Promise<Exchange>,
    options: SendOptions | undefined,
  ): Promise<Exchange> {
    const authorization = request.headerLines
      .filter(([name]) => name.toLowerCase() === 'authorization')
      .map(([, value]) => value);
    // The path as it goes on the wire (a spelling such as `/./admin` or `/admin#x` as spelled): what the target routes.
    const bucket = this.scheduler.bucketOf(wireTarget(request.url), authorization, request.method);
    // A control request, sent the same way outside the scheduler's slots: tells a ban's 403 from a refusal.
    const control = async (path: string, value: string | undefined) =>
      send(
        this.prepare({ method: 'GET', path, headers: value === undefined ? {} : { Authorization: value } }),
      );
    const controlled: SendOptions = {
      ...options,
      control,
      ...(authorization.length === 1 ? { authorization: authorization[0] } : {}),
    };
    try {
      const budget = options?.provoking ? this.provokingBudget : this.budget;
      return await this.scheduler.run(
        bucket,
        async (attempt) => {
          // After a wait the credentials may have come due: the re-sent request carries the current ones.
          const current = attempt === 0 ? request : await this.refreshed(request);
          const ex = await budget.run(() => send(current));
          this.observe?.(ex);
          return ex;
        },
        (ex) => ex,
        controlled,
      );
    } catch (e) {
      if (e instanceof TestOutOfTime) test.skip(true, e.message);
      if (e instanceof RunBudgetExhausted) test.skip(true, `run budget: ${e.message}`);
      // Only an answer is evidence (docs/design.md "A polite client"): no answer in time says nothing.
      if (e instanceof TargetError && e.timedOut)
        test.skip(
          true,
          `${e.message} (budget.timeoutMs): a slow answer is no verdict; raise budget.timeoutMs`,
        );
      throw e;
    }
  }

  private async refreshed(request: ReplayRequest): Promise<ReplayRequest> {
    const refresh = this.refreshAuthorization;
    if (refresh === undefined) return request;
    const headerLines = await Promise.all(
      request.headerLines.map(
        async ([name, value]) =>
          [name, name.toLowerCase() === 'authorization' ? await refresh(value) : value] as const,
      ),
    );
    return { ...request, headerLines };
  }

  /** Sends one request. */
  async send(req: Request, options?: SendOptions): Promise<Exchange> {
    return this.budgeted(this.prepare(req), (request) => this.exchange(request), options);
  }

  /**
   * Sends a request whose field lines may repeat a name (e.g. two Authorization lines, which a
   * Record of headers cannot express), with Node's http client.
   */
  async sendLines(
    req: Request,
    lines: readonly (readonly [string, string])[],
    options?: SendOptions,
  ): Promise<Exchange> {
    return this.budgeted(this.prepare(req, lines), (request) => this.exchange(request), options);
  }

  /**
   * One request on the wire and its whole answer.
   *
   * Connections are kept alive (Node's global agent), so a request can meet the keep-alive race
   * (specs/lib/keep-alive-race.ts). An idempotent request is then sent once more on a fresh connection
   * (RFC 9110 §9.2.2 lets a client retry those automatically); any other is not re-sent, and the error says
   * why.
   */
  private exchange(request: ReplayRequest, retried = false): Promise<Exchange> {
    // Node's client upper-cases the method it is given: a method as written goes out over a raw socket.
    if (request.method !== request.method.toUpperCase()) return this.rawExchange(request);
    return new Promise<Exchange>((resolve, reject) => {
      const started = performance.now();
      const url = new URL(request.url);
      const client = url.protocol === 'https:' ? https : http;
      const out = client.request(url, {
        ...(url.protocol === 'https:' ? this.tls : {}),
        // The target as written, not as the URL parser normalised it: dot segments, '#', backslashes kept.
        path: wireTarget(request.url),
        method: request.method,
        // HEAD on a connection of its own, closed after it (RFC 9110 §9.3.2: no content follows a HEAD answer):
        // a server that sends a body anyway leaves it on this connection, not in front of the next check's answer.
        ...(request.method === 'HEAD' ? { agent: false } : {}),
        timeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const grouped = new Map<string, string[]>();
      for (const [name, value] of request.headerLines)
        grouped.set(name, [...(grouped.get(name) ?? []), value]);
      if (!request.headerLines.some(([name]) => name.toLowerCase() === 'user-agent'))
        grouped.set('User-Agent', [USER_AGENT]);
      // Node writes each array element as its own field line.
      for (const [name, values] of grouped)
        out.setHeader(name, values.length === 1 ? (values[0] ?? '') : values);
      out.on('timeout', () => out.destroy(new Error(`timed out after ${this.timeoutMs} ms`)));
      out.on('error', (e: NodeJS.ErrnoException) => {
        const raced = !retried && keepAliveRaced(out, e);
        if (raced && resendable(request.method)) {
          resolve(this.exchange(request, true));
          return;
        }
        const why = raced
          ? new Error(
              `${e.message} on a reused keep-alive connection; not re-sent, ${request.method} is not idempotent (RFC 9110 §9.2.2)`,
            )
          : e;
        reject(this.unreachable(why, request));
      });
      out.on('response', (res) => {
        if (request.method === 'HEAD') {
          // No content follows a HEAD answer (RFC 9110 §9.3.2): it is complete with its header section. Bytes a
          // server sends anyway are discarded with the connection, and its parse error comes after the answer.
          resolve(this.answered(request, res, Buffer.alloc(0), started));
          out.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reject(this.unreachable(e, request)));
        res.on('end', () => resolve(this.answered(request, res, Buffer.concat(chunks), started)));
      });
      out.end(request.body);
    });
  }

  /** The exchange of a response read to its end (or, for HEAD, to the end of its header section). */
  private answered(
    request: ReplayRequest,
    res: http.IncomingMessage,
    body: Buffer,
    started: number,
  ): Exchange {
    const headerLines: (readonly [string, string])[] = [];
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
      headerLines.push([(res.rawHeaders[i] ?? '').toLowerCase(), res.rawHeaders[i + 1] ?? '']);
    }
    return {
      request,
      status: res.statusCode ?? 0,
      headers: joinHeaders(headerLines),
      headerLines,
      body: body.toString('utf8'),
      ms: performance.now() - started,
    };
  }

  /** One request over a raw socket (a method Node would upper-case): its Authorization lines, no body. */
  private async rawExchange(request: ReplayRequest): Promise<Exchange> {
    const others = request.headerLines.filter(([name]) => name.toLowerCase() !== 'authorization');
    if (others.length > 0 || request.body !== undefined)
      throw new TypeError(
        `${request.method}: a method sent as written carries Authorization lines only, no body`,
      );
    this.rawSocket ??= createRawSocketClient({ timeoutMs: this.timeoutMs, tls: this.tls });
    const started = performance.now();
    const outcome = await this.rawSocket.send({
      method: request.method,
      url: request.url,
      authorization: request.headerLines.map(([, value]) => value),
    });
    if (outcome.kind === 'dropped') throw this.unreachable(new Error(outcome.error), request);
    return {
      request,
      status: outcome.status,
      headers: outcome.headers,
      headerLines: Object.entries(outcome.headers),
      body: outcome.body,
      ms: performance.now() - started,
    };
  }
}

function joinHeaders(lines: readonly (readonly [string, string])[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of lines) {
    const lower = name.toLowerCase();
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
  }
  return out;
}
