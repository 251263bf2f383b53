/**
 * Is anybody there? One GET before the run, so "target down" (exit 3) is told apart from "target broken"
 * (exit 1). Any HTTP answer counts as reachable: judging it is the suite's job. One answer is judged here:
 * 404 from every endpoint the profile declares, the sign of a base URL with a wrong path prefix.
 */

import http from 'node:http';
import https from 'node:https';
import type { NodeTlsOptions } from './tls.ts';

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

/** At most this many endpoints are asked, one after another, before a run is stopped as misaddressed. */
const MAX_ENDPOINTS_ASKED = 8;

/**
 * True when every URL answers 404 (RFC 9110 §15.5.5: no current representation for the target resource):
 * the base URL is then probably wrong. Stops at the first other answer, or the first URL with no answer.
 */
export async function everyAnswerIs404(
  urls: readonly string[],
  timeoutMs = 5000,
  tls?: NodeTlsOptions,
): Promise<boolean> {
  const asked = urls.slice(0, MAX_ENDPOINTS_ASKED);
  if (asked.length === 0) return false;
  for (const url of asked) {
    const answer = await checkReachable(url, timeoutMs, tls);
    if (!answer.reachable || answer.status !== 404) return false;
  }
  return true;
}

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
