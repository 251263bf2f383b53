/**
 * Replay lines for a counterexample: a curl command when curl can send the octets, else the raw request
 * piped to nc (or openssl s_client for https) through printf, so CR, LF, NUL and obs-text go out exactly.
 */
import { shellQuote } from '../../../shared/shell.ts';
import { rawRequestText } from '../clients/raw-socket.ts';
import type { WireRequest } from '../clients/types.ts';

/** A byte string as JSON with every octet outside printable ASCII escaped (`\r`, `\u0000`, `\u00ff`). */
export function jsonBytes(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u00ff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Whether curl on a UTF-8 terminal would send these octets unchanged: one line of visible ASCII (SP, HTAB
 * inside), no whitespace around it. Otherwise the raw replay is printed.
 */
export function curlCanReplay(request: WireRequest): boolean {
  return (
    request.authorization.length <= 1 &&
    request.authorization.every((v) => /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/.test(v))
  );
}

/** The replay line: curl when it can send the request exactly, else the raw request through printf. */
export function replayLine(request: WireRequest): string {
  return curlCanReplay(request) ? curlReplay(request) : rawReplay(request);
}

export function curlReplay(request: WireRequest): string {
  const parts = ['curl', '-i', '-sS', '-X', request.method, shellQuote(request.url)];
  for (const value of request.authorization) {
    // curl drops `Name:` with an empty value; `Name;` sends it empty.
    parts.push('-H', shellQuote(value === '' ? 'Authorization;' : `Authorization: ${value}`));
  }
  return parts.join(' ');
}

/** printf's format language: `%` doubled, backslash escaped, other octets outside printable ASCII as octal. */
function printfFormat(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (c === '%') out += '%%';
    else if (c === '\\') out += '\\\\';
    else if (c === '\r') out += '\\r';
    else if (c === '\n') out += '\\n';
    else if (code < 0x20 || code >= 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += c;
  }
  return out;
}

export function rawReplay(request: WireRequest): string {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  const port = url.port || (secure ? '443' : '80');
  const host = url.hostname;
  const sink = secure ? `openssl s_client -quiet -connect ${host}:${port}` : `nc ${host} ${port}`;
  return `printf ${shellQuote(printfFormat(rawRequestText(request)))} | ${sink}`;
}
