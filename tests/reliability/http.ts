/**
 * A small node:http client for the reliability tests: many requests at once over one agent, each answer
 * read whole, every wait bounded.
 */

import { Agent, request } from 'node:http';

export interface Reply {
  readonly status: number;
  readonly body: string;
}

export function send(
  agent: Agent,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.setTimeout(options.timeoutMs ?? 15_000, () =>
      req.destroy(new Error(`no answer within ${options.timeoutMs ?? 15_000} ms`)),
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** An agent that opens as many sockets as there are requests in flight (no queueing on our side). */
export const unboundedAgent = (): Agent =>
  new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
