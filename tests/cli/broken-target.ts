/**
 * Targets that break rules on purpose, for the CLI's exit-code tests (until the mock's own defect modes
 * exist): a front for the bundled mock that changes one behaviour, and counts what it received.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMock } from '../../mock/server.ts';

export type Defect =
  /** Every request answered 200: authentication never enforced (breaks the MUST 401 rules). */
  | 'open'
  /** The Bearer challenge of a 401 for a request without credentials carries error="invalid_token" (a SHOULD). */
  | 'bearer-error-without-credentials';

export interface BrokenTarget {
  readonly url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startBrokenTarget(defect: Defect): Promise<BrokenTarget> {
  const mock = await startMock({ port: 0 });
  const upstream = new URL(mock.url);
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    if (defect === 'open') {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
      return;
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const headers = { ...answer.headers };
        const challenge = headers['www-authenticate'];
        if (answer.statusCode === 401 && !req.headers.authorization && typeof challenge === 'string') {
          // RFC 6750 §3.1: "If the request lacks any authentication information … the resource server
          // SHOULD NOT include an error code". This target does.
          headers['www-authenticate'] = challenge.replace(
            /Bearer realm="([^"]*)"/,
            'Bearer realm="$1", error="invalid_token"',
          );
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mock.close();
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
