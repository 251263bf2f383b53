/**
 * One answer of a measured server, recorded so the ceiling (bench/ceiling-child.ts) can replay the same bytes:
 * status, header fields as received (name and value, in order) and body. The fields node:http writes on its
 * own for every answer (RFC 9110 §6.6.1 Date; RFC 9112 §9.3 Connection and Keep-Alive; framing) are left
 * out, since the replaying server adds them just as the measured one did.
 */

import { request } from 'node:http';

export interface RecordedAnswer {
  readonly status: number;
  /** [name, value, name, value, …] as received, without the fields node:http adds itself. */
  readonly headers: readonly string[];
  /** Base64, so the recording crosses the IPC channel unchanged. */
  readonly body: string;
}

const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Sends `GET <url><path>` with `headers` once and records the answer. Bounded by `timeoutMs`. */
export function recordAnswer(
  url: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs = 10_000,
): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers, timeout: timeoutMs, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const kept: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] as string;
          if (!ADDED_BY_NODE.has(name.toLowerCase())) kept.push(name, res.rawHeaders[i + 1] as string);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: kept,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}${path} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
