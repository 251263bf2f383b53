/**
 * A raw TCP (or TLS) client: writes the request octets exactly as given, so CR, LF, NUL, obs-text,
 * surrounding whitespace and a second Authorization line really reach the target — every HTTP library
 * refuses or normalises them. One connection per case (`Connection: close`), so one case's junk cannot
 * poison the next. Reads the answer with parseHttp1Response.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import { requestTargetAsWritten } from '../../lib/request-target.ts';
import type { NodeTlsOptions } from '../../lib/tls.ts';
import { parseHttp1Response } from './http1-response.ts';
import type { Client, Outcome, WireRequest } from './types.ts';

/**
 * The request as octets (a byte string). Host and Connection come first and Authorization last, so octets
 * injected into Authorization (a CRLF, an obs-fold) cannot hide the framing fields.
 */
export function rawRequestText(request: WireRequest): string {
  const url = new URL(request.url);
  const lines = [
    // The target as written: no dot segment removed, no fragment dropped (specs/lib/request-target.ts).
    `${request.method} ${requestTargetAsWritten(request.url)} HTTP/1.1`,
    `Host: ${url.host}`,
    'User-Agent: gatecheck-fuzz',
    'Accept: */*',
    'Connection: close',
    ...request.authorization.map((value) => `Authorization: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function createRawSocketClient(options: {
  readonly timeoutMs: number;
  /** The run's CA, client certificate and verification switch (specs/lib/tls.ts). */
  readonly tls?: NodeTlsOptions;
}): Client {
  return {
    name: 'raw socket',
    canSend: () => true,
    send(request: WireRequest): Promise<Outcome> {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = Number(url.port || (secure ? 443 : 80));
      const octets = Buffer.from(rawRequestText(request), 'latin1');

      return new Promise<Outcome>((resolve) => {
        const chunks: Buffer[] = [];
        let received = 0;
        let settled = false;
        const socket = secure
          ? tls.connect({ ...options.tls, host, port, servername: net.isIP(host) ? undefined : host })
          : net.connect({ host, port });
        const finish = (outcome: Outcome): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          socket.destroy();
          resolve(outcome);
        };
        const read = (ended: boolean, why?: string): Outcome | undefined => {
          const parsed = parseHttp1Response(Buffer.concat(chunks, received), ended, request.method);
          if (parsed.state === 'complete') return { kind: 'response', ...parsed.response };
          if (parsed.state === 'invalid')
            return { kind: 'dropped', error: why ? `${why} (${parsed.reason})` : parsed.reason };
          return ended
            ? { kind: 'dropped', error: why ?? 'connection closed before a complete response' }
            : undefined;
        };
        const timer = setTimeout(() => {
          const outcome = read(true, `no complete response within ${options.timeoutMs} ms`) as Outcome;
          // Nothing complete in time: a clock, not an answer (a response already complete was finished earlier).
          finish(outcome.kind === 'dropped' ? { ...outcome, timedOut: true } : outcome);
        }, options.timeoutMs);

        socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(octets));
        socket.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          const outcome = read(false);
          if (outcome) finish(outcome);
        });
        socket.once('end', () => finish(read(true) as Outcome));
        socket.once('close', () => finish(read(true) as Outcome));
        // A reset after a complete response is still that response; before one, the connection was dropped.
        socket.on('error', (error: NodeJS.ErrnoException) =>
          finish(read(true, error.code ?? error.message) as Outcome),
        );
      });
    },
  };
}
