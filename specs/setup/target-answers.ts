/**
 * The run's set-up asks whether anybody listens at the target before any check (issue #67): a target nobody
 * answers stops the run with one line, not a run of failed checks — the same in a user's own Playwright config as
 * in the CLI, which asks first itself (specs/lib/reachability.ts) and skips this. Only a TCP connection is made,
 * no HTTP request: a target's rate limit counts nothing of it, and a slow or hostile answer is the checks' to judge.
 */
import net from 'node:net';
import type { Profile } from '../profile/types.ts';

/** The start of the set-up's error for a target nobody answers; the reporter reads it (exit 3). */
export const UNREACHABLE = 'target unreachable: ';

/** Node's codes for "nobody there", in words. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Throws `target unreachable: <host:port>: <why>` when no TCP connection to the base URL's host can be made. */
export function expectTargetAnswers(profile: Profile, baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const timeoutMs = profile.budget?.timeoutMs ?? 5000;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const give = (why: string) => {
      socket.destroy();
      reject(new Error(`${UNREACHABLE}${url.protocol}//${url.host}: ${why}`));
    };
    socket.setTimeout(timeoutMs, () => give(`no connection within ${timeoutMs} ms`));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', (error: NodeJS.ErrnoException) => give(REASONS[error.code ?? ''] ?? error.message));
  });
}
