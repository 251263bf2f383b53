/**
 * A curl line that replays a request, credentials redacted (specs/lib/redact.ts): QA pastes it, puts
 * their own credential back in, and sees what the suite saw.
 */
import { isIP } from 'node:net';
import { isSecretHeader } from '../../shared/secrets.ts';
import { shellQuote } from '../../shared/shell.ts';
import { redactAuthorization } from './redact.ts';
import { normalisedAway, wireTarget } from './request-target.ts';

export interface ReplayRequest {
  readonly method: string;
  readonly url: string;
  /** Field lines in the order sent; a name may repeat. */
  readonly headerLines: readonly (readonly [string, string])[];
  readonly body?: string;
}

/**
 * The line that replays `req`: curl's, unless the request repeats its Host field — curl sends one Host line
 * whatever it is given, so that request goes out as its octets, written by printf into a socket Node opens
 * (a TLS one for https): Node is the one program every machine that runs gatecheck has.
 */
export function curlLine(req: ReplayRequest): string {
  const hosts = req.headerLines.filter(([name]) => name.toLowerCase() === 'host').length;
  return hosts > 1 ? rawLine(req) : curlCommand(req);
}

function shownLine([name, value]: readonly [string, string]): string {
  return `${name}: ${isSecretHeader(name) ? redactAuthorization(value) : value}`;
}

/** `printf '%s\r\n' <request line> <field lines> '' | node -e <socket>`, the body (if any) after the blank line. */
function rawLine(req: ReplayRequest): string {
  const url = new URL(req.url);
  const secure = url.protocol === 'https:';
  const port = url.port || (secure ? '443' : '80');
  const lines = [
    `${req.method} ${wireTarget(req.url)} HTTP/1.1`,
    ...req.headerLines.map(shownLine),
    ...(req.body === undefined ? [] : [`Content-Length: ${Buffer.byteLength(req.body)}`]),
    'Connection: close',
    '',
  ];
  const head = `printf '%s\\r\\n' ${lines.map(shellQuote).join(' ')}`;
  const write = req.body === undefined ? head : `{ ${head}; printf '%s' ${shellQuote(req.body)}; }`;
  const name = url.hostname.replace(/^\[|\]$/g, '');
  const host = JSON.stringify(name);
  // RFC 6066 §3: no IP address as the server name.
  const servername = isIP(name) === 0 ? `, servername: ${host}` : '';
  const socket = secure
    ? `require("tls").connect({ host: ${host}, port: ${port}${servername} })`
    : `require("net").connect(${port}, ${host})`;
  return `${write} | node -e ${shellQuote(`const s = ${socket}; process.stdin.pipe(s); s.pipe(process.stdout);`)}`;
}

function curlCommand(req: ReplayRequest): string {
  const parts = ['curl', '-i', '-sS', '-X', req.method, shellQuote(req.url)];
  // curl removes dot segments and drops a fragment: a spelling of a path goes out as sent (request-target.ts).
  if (normalisedAway(req.url)) parts.push('--request-target', shellQuote(wireTarget(req.url)));
  for (const [name, value] of req.headerLines) {
    const shown = isSecretHeader(name) ? redactAuthorization(value) : value;
    // curl drops a header given as `Name:`; `Name;` sends it with an empty value.
    parts.push('-H', shellQuote(shown === '' ? `${name};` : `${name}: ${shown}`));
  }
  if (req.body !== undefined) parts.push('--data-raw', shellQuote(req.body));
  return parts.join(' ');
}
