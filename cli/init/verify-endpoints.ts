/**
 * A profile's public, protected and admin reads checked against the target's own answers (issue #69), with a
 * few GETs (probe.ts) — what `gatecheck init --probe` does before it writes the profile, and what `gatecheck
 * check --probe` can do on an existing one (`verifyProfile`):
 * - the public read answers 2xx without credentials;
 * - the protected read does not answer 2xx without credentials (RFC 9110 §15.5.2: 401 asks for them), and
 *   answers 2xx to each identity whose credentials are set (both must be allowed it);
 * - the admin read does not answer 2xx without credentials, answers 403 or 404 to the user (RFC 9110
 *   §15.5.4, §15.5.5) and 2xx to the admin;
 * - a success status the document declares for the read is the one seen.
 * An answer that says otherwise contradicts the pick, and is quoted. An answer that proves nothing against it —
 * no answer, credentials not set or refused by both identities, another status — is a note.
 */

import type { ProbeAnswer, Prober } from './probe.ts';
import { type Credential, credentialFor } from './probe-credentials.ts';

type Json = Record<string, unknown>;

export const PROBED_ROLES = ['public', 'protected', 'admin'] as const;
export type ProbedRole = (typeof PROBED_ROLES)[number];

export interface Verdict {
  readonly role: ProbedRole;
  /** `GET /users/me` */
  readonly endpoint: string;
  readonly answers: readonly ProbeAnswer[];
  /** The answer that contradicts the pick, quoted with the status it gave; undefined when none does. */
  readonly contradiction: string | undefined;
  readonly notes: readonly string[];
}

const ok = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;
/** 408, 429 and 5xx: the target did not decide the request. */
const provesNothing = (status: number | undefined) =>
  status === 408 || status === 429 || (status !== undefined && status >= 500);
const said = (a: ProbeAnswer) => `${a.request} → ${a.status ?? `no answer (${a.error})`}`;

/** The identity's Authorization for the first of the endpoint's schemes it has credentials for. */
function firstCredential(
  profile: Json,
  identity: string,
  schemes: readonly string[],
  env: NodeJS.ProcessEnv,
): { scheme: string; credential: Extract<Credential, { header: string }> } | { why: string } {
  const reasons: string[] = [];
  for (const scheme of schemes) {
    const credential = credentialFor(profile, identity, scheme, env);
    if ('header' in credential) return { scheme, credential };
    reasons.push(
      'missing' in credential ? `${credential.missing} is not set` : `${scheme}: ${credential.unsupported}`,
    );
  }
  return { why: reasons.join('; ') || 'the endpoint names no scheme' };
}

/** One read of the profile checked; `declared`: the success statuses its document declares. */
export async function verifyEndpoint(
  prober: Prober,
  profile: Json,
  role: ProbedRole,
  env: NodeJS.ProcessEnv,
  declared: readonly number[] = [],
): Promise<Verdict> {
  const endpoints = (profile.endpoints ?? {}) as Record<string, Json | undefined>;
  const e = endpoints[role] ?? {};
  const method = String(e.method ?? 'GET').toUpperCase();
  const path = String(e.path);
  const endpoint = `${method} ${path}`;
  const answers: ProbeAnswer[] = [];
  const notes: string[] = [];
  const verdict = (contradiction?: string): Verdict => ({ role, endpoint, answers, contradiction, notes });
  if (method !== 'GET') return { ...verdict(), notes: [`${endpoint} is not a GET: not probed`] };
  const request = {
    path,
    ...(e.query === undefined ? {} : { query: e.query as Record<string, string> }),
  };
  const ask = async (as: string, authorization?: string) => {
    const headers = { ...((e.headers as Record<string, string> | undefined) ?? {}) };
    if (authorization !== undefined) headers.authorization = authorization;
    const answer = await prober.get({ ...request, headers, as });
    if (answer !== undefined) answers.push(answer);
    else notes.push(`not asked: ${prober.stopped ?? 'outside the base URL'}`);
    return answer?.status === undefined ? undefined : answer;
  };
  const wrongStatus = (a: ProbeAnswer) =>
    declared.length > 0 && ok(a.status) && !declared.includes(a.status as number)
      ? `${said(a)}, where the document declares ${declared.join(', ')}`
      : undefined;

  const bare = await ask('no credentials');
  if (bare === undefined) return verdict();
  // A limiter's, a timeout's or a server error's answer says nothing about who may read (RFC 9110 §15.6; RFC 6585
  // §4): noted, never a contradiction.
  if (provesNothing(bare.status)) {
    notes.push(`${said(bare)}: proves nothing about the pick`);
    return verdict();
  }
  if (role === 'public')
    return verdict(
      ok(bare.status)
        ? wrongStatus(bare)
        : `${said(bare)}: the public read must answer 2xx without credentials`,
    );
  if (ok(bare.status)) return verdict(`${said(bare)} without credentials: it is not protected`);
  if (bare.status !== 401) notes.push(`${said(bare)}, not 401`);

  const seen: Record<string, ProbeAnswer | undefined> = {};
  for (const identity of ['admin', 'user']) {
    const chosen = firstCredential(profile, identity, (e.schemes as string[] | undefined) ?? [], env);
    if ('why' in chosen) {
      notes.push(`the ${identity} identity not asked: ${chosen.why}`);
      continue;
    }
    seen[identity] = await ask(
      `${identity}, ${chosen.scheme} from ${chosen.credential.from}`,
      chosen.credential.header,
    );
  }
  const { admin, user } = seen;
  if ([admin, user].every((a) => a === undefined || a.status === 401) && (admin ?? user) !== undefined)
    notes.push('every identity asked got 401: check the credentials in the variables');
  if (role === 'protected') {
    for (const a of [admin, user])
      if (
        a !== undefined &&
        (a.status === 403 || a.status === 404) &&
        [admin, user].some((b) => ok(b?.status))
      )
        return verdict(`${said(a)}: both identities must be allowed the protected read`);
    for (const a of [admin, user]) if (a !== undefined && wrongStatus(a)) return verdict(wrongStatus(a));
    return verdict();
  }
  if (user !== undefined && ok(user.status))
    return verdict(`${said(user)}: the user may read it, so it is no admin read`);
  if (admin !== undefined && (admin.status === 403 || admin.status === 404))
    return verdict(`${said(admin)}: the admin identity is refused its own read`);
  if (admin !== undefined && wrongStatus(admin)) return verdict(wrongStatus(admin));
  return verdict();
}

/**
 * Every public, protected and admin read of an existing profile checked (for `gatecheck check --probe`): one
 * verdict each, in that order; `env` holds the variables the profile names.
 */
export async function verifyProfile(
  prober: Prober,
  profile: Json,
  env: NodeJS.ProcessEnv,
): Promise<Verdict[]> {
  const endpoints = (profile.endpoints ?? {}) as Record<string, unknown>;
  const out: Verdict[] = [];
  for (const role of PROBED_ROLES)
    if (endpoints[role] !== undefined) out.push(await verifyEndpoint(prober, profile, role, env));
  return out;
}
