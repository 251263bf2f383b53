/**
 * A target that answers 200 to everything, whatever the request: authentication never enforced. Kept for
 * tests/report/redaction.test.ts, which needs failures of rules of every scheme at once; the exit-code tests
 * use the mock's own defect modes (tests/helpers/defect-mock.ts). No single defect mode reproduces it.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrokenTarget {
  readonly url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startBrokenTarget(_defect: 'open'): Promise<BrokenTarget> {
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: bound, read, released. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
