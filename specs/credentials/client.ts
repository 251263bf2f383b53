/**
 * The workers' side of the token broker (broker.ts): `tokenFor(identity)` — the one narrow interface rules
 * and fuzz plans use to get a valid Bearer token obtained at run time. Each token is registered for
 * redaction in this process before anyone sees it, and kept until the broker's refresh time.
 */
import * as http from 'node:http';
import { ENV } from '../../shared/env.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import { SECRET_HEADER } from './broker.ts';

interface Held {
  readonly token: string;
  readonly refreshAt: number | null;
}

const held = new Map<string, Held>();
/** Whose each token fetched in this process is, so a re-sent request can swap it for a fresher one. */
const identityOf = new Map<string, string>();
const inflight = new Map<string, Promise<string>>();

function ask(path: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  const base = env[ENV.tokenBroker];
  const secret = env[ENV.tokenBrokerSecret];
  if (!base || !secret) {
    return Promise.reject(new Error(`no token broker in this run (${ENV.tokenBroker} is not set)`));
  }
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { [SECRET_HEADER]: secret } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: string };
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(body.error ?? `token broker answered ${res.statusCode}`));
      });
    });
    req.on('error', reject);
  });
}

/** A valid Bearer token of `identity`, obtained once per run and refreshed before it expires. */
export function tokenFor(identity: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const current = held.get(identity);
  if (current && (current.refreshAt === null || Date.now() < current.refreshAt))
    return Promise.resolve(current.token);
  let pending = inflight.get(identity);
  if (pending === undefined) {
    pending = (ask(`/token/${identity}`, env) as Promise<Held>)
      .then((answer) => {
        rememberSecrets([answer.token]);
        held.set(identity, answer);
        identityOf.set(answer.token, identity);
        return answer.token;
      })
      .finally(() => inflight.delete(identity));
    inflight.set(identity, pending);
  }
  return pending;
}

/**
 * `value` (an Authorization field value) as it should be sent now: a Bearer token fetched at run time that
 * has come due for refresh — typically while the run waited out a rate limit — is replaced by its identity's
 * current token; the scheme's spelling and the spacing stay as they were. Any other value is returned as is.
 */
export async function refreshedAuthorization(
  value: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  // RFC 6750 §2.1: b64token after "Bearer" and 1*SP; the scheme is case-insensitive (RFC 9110 §11.1).
  const m = /^(\s*bearer +)(\S+)(\s*)$/i.exec(value);
  const identity = m ? identityOf.get(m[2] ?? '') : undefined;
  if (m === null || identity === undefined) return value;
  const current = await tokenFor(identity, env);
  return current === m[2] ? value : `${m[1]}${current}${m[3]}`;
}

/** Every token the broker fetched in this run (for the reporter's redaction); [] without a broker. */
export async function issuedTokens(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  if (!env[ENV.tokenBroker]) return [];
  try {
    return ((await ask('/issued', env)) as { tokens: string[] }).tokens;
  } catch {
    return [];
  }
}
