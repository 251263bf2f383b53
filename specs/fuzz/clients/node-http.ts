/**
 * node:http (or https) with a keep-alive agent as the fuzz client for the bulk of the cases. Measured on the
 * project's 2-core machine against the mock, it spends about 0.26 ms of client CPU per request where Node's
 * fetch spends 0.43–0.87 ms — and client CPU is throughput when the target shares the machine (docs/fuzzing.md
 * "Clients"). It also sends more of the cases exactly: obs-text octets, whitespace around a value and two
 * Authorization lines, which fetch refuses, trims or merges. Only CTL octets (CR, LF, NUL…) need the raw socket.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { keepAliveRaced, resendable } from '../../lib/keep-alive-race.ts';
import type { NodeTlsOptions } from '../../lib/tls.ts';
import { transportFor } from './select.ts';
import { BODY_LIMIT, type Client, type Outcome, type WireRequest } from './types.ts';

export interface NodeHttpClient extends Client {
  /** Closes the idle keep-alive connections. */
  close(): void;
}

function headersOf(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

interface Target {
  readonly secure: boolean;
  readonly options: http.RequestOptions;
}

export function createNodeHttpClient(options: {
  readonly timeoutMs: number;
  readonly maxSockets: number;
  /** The run's CA, client certificate and verification switch (specs/lib/tls.ts). */
  readonly tls?: NodeTlsOptions;
}): NodeHttpClient {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: options.maxSockets, ...options.tls }),
  };
  // RFC 9110 §9.2.2: a request of a method that is not idempotent is never sent twice. It goes out on a
  // connection of its own, closed after the answer, where the keep-alive race cannot happen.
  const ownConnection = {
    'http:': new http.Agent({ keepAlive: false, maxSockets: options.maxSockets }),
    'https:': new https.Agent({ keepAlive: false, maxSockets: options.maxSockets, ...options.tls }),
  };

  // A run sends thousands of requests to a handful of URLs: parse each once (URL parsing and Node's
  // URL-to-options conversion were a measurable share of the client's CPU per request).
  const targets = new Map<string, Target>();
  const targetOf = (href: string): Target => {
    let target = targets.get(href);
    if (target === undefined) {
      const url = new URL(href);
      const secure = url.protocol === 'https:';
      target = {
        secure,
        options: {
          ...urlToHttpOptions(url),
          agent: agents[secure ? 'https:' : 'http:'],
          // A server name matters for TLS only; an empty one spares the plain-http agent deriving one from
          // the Host header on every request.
          ...(secure ? {} : { servername: '' }),
        },
      };
      if (targets.size >= 64) targets.clear();
      targets.set(href, target);
    }
    return target;
  };

  const attempt = (request: WireRequest, target: Target, retried: boolean): Promise<Outcome> =>
    new Promise<Outcome>((resolve) => {
      const { secure } = target;
      // An array value goes out as one field line per element (two Authorization lines).
      const headers: Record<string, string | string[]> = {};
      if (request.authorization.length === 1) headers.authorization = request.authorization[0] as string;
      else if (request.authorization.length > 1) headers.authorization = [...request.authorization];
      const req = (secure ? https : http).request(
        {
          ...target.options,
          method: request.method,
          headers,
          agent: resendable(request.method)
            ? target.options.agent
            : ownConnection[secure ? 'https:' : 'http:'],
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept < BODY_LIMIT) {
              chunks.push(chunk);
              kept += chunk.length;
            }
          });
          res.on('end', () => {
            clearTimeout(deadline);
            const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
            resolve({
              kind: 'response',
              status: res.statusCode ?? 0,
              headers: headersOf(res.rawHeaders),
              body: body.toString('utf8', 0, Math.min(body.length, BODY_LIMIT)),
            });
          });
          res.on('error', (error: NodeJS.ErrnoException) =>
            resolve({
              kind: 'dropped',
              error: `body cut: ${describe(error)}`,
            }),
          );
        },
      );
      // A deadline for the whole exchange, not an idle timer: a target that dribbles its body one byte at a
      // time must not hold a case past timeoutMs.
      let expired = false;
      const deadline = setTimeout(() => {
        expired = true;
        req.destroy(new Error('timeout'));
      }, options.timeoutMs);
      req.once('close', () => clearTimeout(deadline));
      const describe = (error: NodeJS.ErrnoException): string =>
        expired ? `no complete response within ${options.timeoutMs} ms` : (error.code ?? error.message);
      req.on('error', (error: NodeJS.ErrnoException) => {
        // The keep-alive race (specs/lib/keep-alive-race.ts): sent once more on a fresh connection. Only an
        // idempotent request can meet it: the others never reuse a connection.
        if (!retried && keepAliveRaced(req, error) && resendable(request.method)) {
          resolve(attempt(request, target, true));
          return;
        }
        resolve({ kind: 'dropped', error: describe(error), ...(expired ? { timedOut: true as const } : {}) });
      });
      req.end();
    });

  return {
    name: 'node:http',
    canSend: (request) => transportFor(request) === 'http',
    send: (request) => attempt(request, targetOf(request.url), false),
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
      ownConnection['http:'].destroy();
      ownConnection['https:'].destroy();
    },
  };
}
