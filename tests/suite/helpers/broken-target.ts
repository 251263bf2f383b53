/**
 * A target that changes one behaviour: a proxy in front of the bundled mock that rewrites answers
 * (tests/suite/declared-limits.test.ts: a rate limit and a fault trigger of its own). A target with one of
 * the mock's named bugs is the mock itself with a defect mode on (tests/helpers/defect-mock.ts).
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  /** Raw header lines, names as the upstream sent them. */
  headers: [string, string][];
  body: Buffer;
}

export type Rewrite = (req: IncomingMessage, answer: Answer) => Answer;

export interface BrokenTarget {
  readonly url: string;
  close(): Promise<void>;
}

/** `delayMs`: every answer goes out this much later (a target that answers right, but slowly). */
export async function startBrokenTarget(
  upstream: string,
  rewrite: Rewrite,
  options: { delayMs?: number } = {},
): Promise<BrokenTarget> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', upstream);
      const out = httpRequest(target, { method: req.method });
      // Raw lines, so repeated fields (two Authorization lines) reach the mock as sent.
      const lines = new Map<string, string[]>();
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] ?? '';
        if (name.toLowerCase() === 'host' || name.toLowerCase() === 'connection') continue;
        lines.set(name, [...(lines.get(name) ?? []), req.rawHeaders[i + 1] ?? '']);
      }
      for (const [name, values] of lines)
        out.setHeader(name, values.length === 1 ? (values[0] ?? '') : values);
      out.on('response', (up) => {
        const body: Buffer[] = [];
        up.on('data', (c: Buffer) => body.push(c));
        up.on('end', () => {
          const headers: [string, string][] = [];
          for (let i = 0; i + 1 < up.rawHeaders.length; i += 2) {
            const name = up.rawHeaders[i] ?? '';
            if (
              ['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name.toLowerCase())
            )
              continue;
            headers.push([name, up.rawHeaders[i + 1] ?? '']);
          }
          const answer = rewrite(req, { status: up.statusCode ?? 502, headers, body: Buffer.concat(body) });
          const write = () => {
            if (res.destroyed) return;
            res.writeHead(answer.status, [
              ...answer.headers.flat(),
              'Content-Length',
              String(answer.body.length),
            ]);
            res.end(answer.body);
          };
          if (options.delayMs) setTimeout(write, options.delayMs).unref();
          else write();
        });
      });
      out.on('error', () => {
        res.writeHead(502).end();
      });
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
