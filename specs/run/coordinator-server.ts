/**
 * Hosts the run's scheduler (specs/run/coordinator.ts) for the Playwright workers, which are separate
 * processes: a loopback HTTP server in the runner process, started by global setup, its address (with a
 * per-run secret path, so no other local process can take the run's slots) passed in SCHEDULER_ENV.
 * Why HTTP on loopback rather than a lock file: one process owns the state, so there is nothing to lock,
 * and a slot costs one keep-alive round trip of a fraction of a millisecond, once per lease of many slots.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunCoordinator } from './coordinator.ts';
import { inProcessPort, OPERATIONS } from './port.ts';

export interface CoordinatorServer {
  /** The value for SCHEDULER_ENV. */
  readonly address: string;
  close(): Promise<void>;
}

export async function startCoordinatorServer(coordinator: RunCoordinator): Promise<CoordinatorServer> {
  const secret = randomBytes(16).toString('hex');
  const port = inProcessPort(coordinator);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [, key, op] = (req.url ?? '').split('/');
      const known = (OPERATIONS as readonly string[]).includes(op ?? '');
      if (req.method !== 'POST' || key !== secret || !known) {
        res.writeHead(404).end();
        return;
      }
      let args: unknown[];
      try {
        args = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
        if (!Array.isArray(args)) throw new TypeError('arguments must be an array');
        // JSON has no `undefined`: an argument left out by the caller (`limited`'s declared rate, `counted`'s
        // limit) arrives as null, and must reach the coordinator as left out — `null * 0.9` is a pace of 0.
        args = args.map((a) => (a === null ? undefined : a));
      } catch (e) {
        res.writeHead(400).end(String((e as Error).message));
        return;
      }
      const fn = port[op as (typeof OPERATIONS)[number]] as (...a: unknown[]) => Promise<unknown>;
      fn(...args).then(
        (value) => {
          const body = JSON.stringify(value ?? null);
          res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        },
        (e: unknown) => res.writeHead(500).end(String((e as Error)?.message ?? e)),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: tcp } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${tcp}/${secret}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
