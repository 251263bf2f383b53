/**
 * The protected reads of a profile — `endpoints.protected` and `endpoints.admin` when they are GETs — with the
 * identities each refuses and permits, and what its resource looks like (specs/lib/resource-fingerprint.ts).
 * The refusal checks (specs/conformance/refused-*.spec.ts, path-spellings.spec.ts, refusal-body.spec.ts)
 * send requests a conformant target refuses and look for the resource in what comes back.
 */

import { type Fingerprint, fingerprintOf } from '../lib/resource-fingerprint.ts';
import type { Scheme } from '../profile/types.ts';
import type { SendOptions } from '../run/scheduler.ts';
import type { Target } from '../wire/http.ts';
import { type IdentityName, type Kit, need } from './kit.ts';

export interface GuardedRead {
  readonly field: 'endpoints.protected' | 'endpoints.admin';
  readonly path: string;
  readonly schemes: readonly Scheme[];
  /** Identities that get the resource (seed §4): any known one on the protected path, the admin on the admin path. */
  readonly permitted: readonly IdentityName[];
  /** Identities refused with 403 (seed §7 403 cause 1): the user on the admin path. */
  readonly refused: readonly IdentityName[];
}

/** The profile's protected GETs with their accepted schemes; [] when it declares none. */
export function guardedReads(kit: Kit): GuardedRead[] {
  const out: GuardedRead[] = [];
  const prot = kit.endpoint('protected');
  if (prot?.schemes?.length && (prot.method ?? 'GET').toUpperCase() === 'GET')
    out.push({
      field: 'endpoints.protected',
      path: prot.path,
      schemes: prot.schemes,
      permitted: ['user', 'admin'],
      refused: [],
    });
  const admin = kit.endpoint('admin');
  if (admin?.schemes?.length && (admin.method ?? 'GET').toUpperCase() === 'GET')
    out.push({
      field: 'endpoints.admin',
      path: admin.path,
      schemes: admin.schemes,
      permitted: ['admin'],
      refused: ['user'],
    });
  return out;
}

/** The protected GETs, or a skip naming what the profile lacks. */
export function guardedReadsOrSkip(kit: Kit): GuardedRead[] {
  const out = guardedReads(kit);
  if (out.length === 0)
    need(undefined, 'endpoints.protected | endpoints.admin', 'no protected GET with accepted schemes');
  return out;
}

/** A credential a check sends to a guarded read: none, a wrong one, or a refused identity's valid one. */
export interface Refused {
  /** For messages: `no credentials`, `the user identity (Bearer)`. */
  readonly label: string;
  readonly authorization: string | undefined;
  /** The identity whose valid credential this is, when the path refuses it (its 403 is the verdict). */
  readonly identity?: IdentityName;
}

/**
 * How a refused request is sent: a refused identity's 403 is the answer to judge, never a ban to wait out; for
 * any other credential (none, wrong, malformed) a 403 during a declared ban is the limiter's, waited out and
 * sent again (specs/run/limited-answer.ts) — judging it would take the ban for the refusal.
 */
export function refusalOptions(who: Refused): SendOptions | undefined {
  return who.identity === undefined ? undefined : { expect: [403] };
}

/** No credentials, then each refused identity's first credential in a scheme the path accepts. */
export async function refusedCredentials(kit: Kit, read: GuardedRead): Promise<Refused[]> {
  const out: Refused[] = [{ label: 'no credentials', authorization: undefined }];
  for (const identity of read.refused) {
    for (const scheme of read.schemes) {
      const authorization = await kit.authorization(identity, scheme);
      if (authorization === undefined) continue;
      out.push({
        label: `the ${identity} identity (${kit.credentials.name(scheme)})`,
        authorization,
        identity,
      });
      break;
    }
  }
  return out;
}

/** A permitted identity's credential for the read, or undefined when the profile has none. */
export async function permittedCredential(kit: Kit, read: GuardedRead): Promise<string | undefined> {
  for (const identity of read.permitted)
    for (const scheme of read.schemes) {
      const authorization = await kit.authorization(identity, scheme);
      if (authorization !== undefined) return authorization;
    }
  return undefined;
}

/** Per worker and target: a resource does not change during a run, so it is fetched once. */
const resources = new WeakMap<Target, Map<string, Promise<Fingerprint | undefined>>>();

/**
 * What the resource behind `read` looks like: the fingerprint of the 200 body a permitted identity gets;
 * undefined when no permitted credential is declared or the answer is not a 200 with a recognisable body.
 */
export function resourceOf(kit: Kit, read: GuardedRead): Promise<Fingerprint | undefined> {
  let byPath = resources.get(kit.target);
  if (!byPath) {
    byPath = new Map();
    resources.set(kit.target, byPath);
  }
  let pending = byPath.get(read.path);
  if (!pending) {
    pending = (async () => {
      const authorization = await permittedCredential(kit, read);
      if (authorization === undefined) return undefined;
      const ex = await kit.send({ method: 'GET', path: read.path }, authorization);
      return ex.status === 200 ? fingerprintOf(ex.body) : undefined;
    })();
    byPath.set(read.path, pending);
    // A request that did not go out (a skip for the budget, no answer), or a read that did not give the resource
    // (a token expired mid-run, a 5xx), is tried again by the next check: a resource unknown for the rest of the
    // worker would leave its 2xx answers unexamined.
    const cache = byPath;
    pending.then(
      (fingerprint) => {
        if (fingerprint === undefined) cache.delete(read.path);
      },
      () => cache.delete(read.path),
    );
  }
  return pending;
}
