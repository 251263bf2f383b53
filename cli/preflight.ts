/**
 * Is anybody there? One GET before the run, so "target down" (exit 3) is told apart from "target broken"
 * (exit 1). Any HTTP answer, whatever its status, counts as reachable: judging it is the suite's job.
 */

import http from 'node:http';
import https from 'node:https';
import type { NodeTlsOptions } from '../specs/lib/tls.ts';

export type Reachability =
  | { readonly reachable: true; readonly status: number }
  | { readonly reachable: false; readonly reason: string };

/** Node's error codes in words a QA engineer reads at a glance. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
};

/**
 * `tls`: the run's settings (specs/lib/tls.ts), so a certificate the suite would refuse is found here,
 * before the run, as "unreachable" with its reason; without them certificates are not checked.
 */
export function checkReachable(url: string, timeoutMs = 5000, tls?: NodeTlsOptions): Promise<Reachability> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Reachability) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'GET',
        headers: { 'user-agent': 'gatecheck-preflight', accept: '*/*' },
        ...(tls ?? { rejectUnauthorized: false }),
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        done({ reachable: true, status: res.statusCode ?? 0 });
        req.destroy();
      },
    );
    req.on('timeout', () => {
      done({ reachable: false, reason: `no answer within ${timeoutMs} ms` });
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      done({
        reachable: false,
        reason: REASONS[code] ?? (code ? `${code}: ${error.message}` : error.message),
      });
    });
    req.end();
  });
}
