/**
 * The picks a QA engineer would make from the operations (operations.ts), each with its reason:
 * - `public`, `protected`: a cheap, idempotent GET (RFC 9110 §9.2.1, §9.2.2) the document can address —
 *   path parameters filled, no required parameter to guess, no quota of its own, not a login or logout —
 *   and for `protected` the one needing the fewest scopes or roles and carrying no admin marker. An API
 *   whose reads are all POST (an RPC style such as Outline's) may use a POST that reads (`*.list`, `*.info`).
 * - `admin`: scored from path segments, tags, summaries and descriptions, `x-` markers and the scopes or roles
 *   it names; the runner-up goes into the to-do list.
 */
import { isObject } from './document-extensions.ts';
import type { Operation } from './operations.ts';

type Json = Record<string, unknown>;

/** Words of a path segment, operation id or tag that mark an administrator's operation. */
const ADMIN_SEGMENT = /^(admin|admins|administration|administrator|superuser|sudo)$/i;
/** What a description says of an administrator's operation — not every mention of the word (notification types). */
const ADMIN_TEXT =
  /\b(requires?|needs?|only)\b[^.]{0,40}\badmin(istrator)?s?\b|\badmin(istrator)?s? (only|privileges?|rights|role|permissions?|api key|access)\b|\badmin[- ]only\b|\bsuperuser\b|requires? (elevated|elevation)|\bneeds? to\s+have\s+(the\s+)?permissions?\b/i;
const ADMIN_NEED = /admin|elevat|superuser|manage/i;
/** Operations that start or end a session: a probe must not log anybody out, nor look like a login attempt. */
const SESSION =
  /(^|[/._-])(log-?in|log-?out|sign-?in|sign-?out|logon|logoff|sessions?|oauth|token|tokens|authorize)([/._-]|$)/i;
/** A quota or rate limit of the operation's own: extra traffic there costs the target or trips its limit. */
const QUOTA_TEXT = /rate[- ]?limit|quota|throttl|billable|\bcharged?\b|\bcosts?\b/i;
const QUOTA_KEY = /rate|quota|limit|throttl|cost|billing|price/i;
/** The last word of an RPC-style POST that reads (`documents.list`, `auth.info`). */
const READ_VERB = /(^|[/._-])(list|info|get|read|search|query|me|whoami|current|status|show|find|count)$/i;

export interface Pick {
  readonly op: Operation;
  readonly reason: string;
}

function extensions(op: Operation): [string, unknown][] {
  return Object.entries(op.raw).filter(([k]) => k.startsWith('x-'));
}

/** How strongly the document marks `op` as an administrator's, and why. */
export function adminScore(op: Operation): { score: number; reasons: string[] } {
  const reasons: string[] = [];
  let score = 0;
  const segments = op.path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
  const segment = segments.find((s) => ADMIN_SEGMENT.test(s));
  if (segment !== undefined) {
    score += 3;
    reasons.push(`path segment ${segment}`);
  }
  const tag = op.tags.find((t) => /admin/i.test(t));
  if (tag !== undefined) {
    score += 2;
    reasons.push(`tag "${tag}"`);
  }
  const text = ADMIN_TEXT.exec(op.text);
  const condition = text === null ? undefined : queryCondition(op, text.index);
  if (text !== null && condition === undefined) {
    score += 2;
    reasons.push(`its description says "${text[0]}"`);
  } else if (text === null && op.said.privileged !== undefined) {
    // The words beside (prose.ts): a role, a permission, an owner's or operator's token, on its tags or path too.
    score += 2;
    reasons.push(`${op.said.privileged.where} says "${op.said.privileged.sentence}"`);
  }
  for (const [key, value] of extensions(op)) {
    if (/admin/i.test(key) && value !== false && value !== null) {
      score += 3;
      reasons.push(`${key}: ${JSON.stringify(value)}`);
    } else if (typeof value === 'string' && /admin/i.test(value)) {
      score += 1;
      reasons.push(`${key}: ${value}`);
    }
  }
  // Only when every scope or role named is an administrator's: Sentry's [org:admin, org:read, org:write]
  // lists the scopes any of which opens a read, and Jellyfin's FirstTimeSetupOrElevated is not elevation alone.
  const needs = op.access.needs;
  if (needs.length > 0 && needs.every((n) => ADMIN_NEED.test(n) && !/Or[A-Z]/.test(n))) {
    score += 2;
    reasons.push(`needs ${needs.join(', ')}`);
  }
  return { score, reasons };
}

/**
 * The query parameter an admin sentence is conditional on ("If `all` is true, requires admin"), or undefined:
 * such wording marks one query value an administrator's, and the plain request is anybody's.
 */
export function queryCondition(op: Operation, at: number): string | undefined {
  const start = Math.max(op.text.lastIndexOf('.', at), op.text.lastIndexOf('\n', at)) + 1;
  const end = op.text.indexOf('.', at);
  const sentence = op.text.slice(start, end < 0 ? undefined : end);
  if (!/\b(if|when|with|unless|whether)\b/i.test(sentence)) return undefined;
  const names = (Array.isArray(op.raw.parameters) ? op.raw.parameters : [])
    .filter((p): p is Json => isObject(p) && p.in === 'query' && typeof p.name === 'string')
    .map((p) => String(p.name));
  return names.find((n) =>
    new RegExp(`(^|[^\\w-])${n.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}([^\\w-]|$)`).test(sentence),
  );
}

/** Operations the document marks as an administrator's that init cannot use as the admin endpoint, and why. */
export function unusableAdmin(
  ops: readonly Operation[],
  picked: Operation | undefined,
  rateLimited: ReadonlySet<string>,
): { op: Operation; why: string }[] {
  const out: { op: Operation; why: string }[] = [];
  for (const op of ops) {
    if (op === picked || op.access.public) continue;
    const text = ADMIN_TEXT.exec(op.text);
    const condition = text === null ? undefined : queryCondition(op, text.index);
    const { score } = adminScore(op);
    if (score < 2 && condition === undefined) continue;
    const why =
      score < 2 && condition !== undefined
        ? `its admin wording ("${text?.[0]}") applies only with query ${condition}: without it the user identity's answer is 200`
        : op.access.schemes.length === 0
          ? 'it accepts no scheme the profile sends'
          : op.unfilled.length > 0
            ? `path parameters ${op.unfilled.join(', ')} have no value in the document`
            : op.requiredExtras.length > 0
              ? `it requires ${op.requiredExtras.join(', ')}, which the document gives no value for`
              : op.dangling
                ? 'it holds a $ref the document does not resolve'
                : hasQuota(op, rateLimited)
                  ? 'it has a quota of its own'
                  : op.method !== 'get'
                    ? `it is a ${op.method.toUpperCase()}, which changes the target`
                    : undefined;
    if (why !== undefined) out.push({ op, why });
  }
  return out;
}

/**
 * Operations the document marks as an administrator's that state no security requirement: by OpenAPI anyone
 * may call them (§4.8.30), which the admin to-do must not hide (issue #69: 35 `/admin/*` operations of one
 * document stated none).
 */
export function openAdmin(ops: readonly Operation[]): Operation[] {
  return ops.filter((o) => o.access.public && adminScore(o).score >= 2);
}

/** A quota of its own: the document's rate-limit extension names it, or its text or `x-` fields say so. */
export function hasQuota(op: Operation, rateLimited: ReadonlySet<string>): boolean {
  if (rateLimited.has(`${op.method.toUpperCase()} ${op.path}`)) return true;
  if (QUOTA_TEXT.test(op.text)) return true;
  return extensions(op).some(([key]) => QUOTA_KEY.test(key));
}

/** Can be sent as the document describes it, with nothing to guess. */
export function addressable(op: Operation): op is Operation & { address: string } {
  return op.address !== undefined && op.requiredExtras.length === 0 && !op.dangling && !SESSION.test(op.path);
}

/** A POST that only reads, in an API whose reads are POSTs: named like one, and no required body field. */
export function readingPost(op: Operation): boolean {
  if (op.method !== 'post') return false;
  const name = `${op.path} ${typeof op.raw.operationId === 'string' ? op.raw.operationId : ''}`;
  const lastWord = op.path.split('/').pop() ?? '';
  if (!READ_VERB.test(lastWord) && !/^(list|get|read|search|find)/i.test(String(op.raw.operationId ?? '')))
    return false;
  // The profile's endpoint sends no body: a POST whose body is required (OpenAPI §4.8.13 `required`, Plaid's
  // `/categories/get`) or has required members would be refused for it, not answered.
  const required =
    op.bodyRequired ||
    (op.body !== undefined && Array.isArray(op.body.required) && op.body.required.length > 0);
  return !required && !/delete|remove|create|update|revoke|rotate/i.test(name);
}

/**
 * A read whose declared successes are all other than 200 (a `GET /ping` answering only 204, issue #69) cannot
 * be a read the checks expect 200 from; a read that declares none is taken at its word of nothing.
 */
export const answers200 = (o: Operation) => o.successes.length === 0 || o.successes.includes(200);
const notOk = (o: Operation) =>
  `${o.method.toUpperCase()} ${o.path} (its declared success${o.successes.length > 1 ? 'es are' : ' is'} ${o.successes.join(', ')}, not 200)`;

const byAddress = (a: Operation, b: Operation): number =>
  (a.address ?? '').length - (b.address ?? '').length || (a.address ?? '').localeCompare(b.address ?? '');

/** Reads: the document's GETs, or — when it has none that fit — its reading POSTs. */
function reads(candidates: readonly Operation[]): { list: Operation[]; post: boolean } {
  const gets = candidates.filter((o) => o.method === 'get');
  if (gets.length > 0) return { list: gets, post: false };
  return { list: candidates.filter(readingPost), post: true };
}

/** Its words say it is not authenticated although its `security` asks for credentials (prose.ts). */
const saidOpen = (o: Operation) => !o.access.public && o.said.open !== undefined;
const quoted = (o: Operation) => `${o.said.open?.where} says "${o.said.open?.sentence}"`;

export function pickPublic(ops: readonly Operation[], rateLimited: ReadonlySet<string>): Pick | undefined {
  // The document's `security` first; else an operation whose own words say it is not authenticated.
  const stated = reads(ops.filter((o) => o.access.public && addressable(o) && answers200(o)));
  const { list, post } =
    stated.list.length > 0
      ? stated
      : reads(ops.filter((o) => saidOpen(o) && addressable(o) && answers200(o)));
  // An operation marked as an administrator's (Discourse's `/admin/*` stating no security) is the last choice.
  const rank = (o: Operation) => 2 * Number(adminScore(o).score >= 2) + Number(hasQuota(o, rateLimited));
  const op = [...list].sort((a, b) => rank(a) - rank(b) || byAddress(a, b))[0];
  if (op === undefined) return undefined;
  const why = [
    adminScore(op).score >= 2 ? 'every candidate is marked as an administrator’s' : '',
    saidOpen(op)
      ? `its security asks for credentials, but ${quoted(op)}`
      : post
        ? 'a reading POST: the document has no public GET that fits'
        : 'a public GET',
    op.filled.length ? `path parameters ${op.filled.join(', ')}` : '',
  ].filter(Boolean);
  return { op, reason: why.join('; ') };
}

export function pickProtected(ops: readonly Operation[], rateLimited: ReadonlySet<string>): Pick | undefined {
  const guarded = ops.filter((o) => !o.access.public && o.access.schemes.length > 0 && addressable(o));
  const { list: all, post } = reads(guarded);
  // Words that override `security` ("This endpoint is not authenticated", prose.ts): never the protected read.
  const list = all.filter((o) => !saidOpen(o) && answers200(o));
  const open = all.filter(saidOpen);
  const other = all.filter((o) => !saidOpen(o) && !answers200(o));
  const rank = (o: Operation) => [
    Number(adminScore(o).score > 0),
    Number(hasQuota(o, rateLimited)),
    o.access.least,
    o.filled.length,
  ];
  const op = [...list].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return byAddress(a, b);
  })[0];
  if (op === undefined) return undefined;
  // Each phrase true of the candidates, not only of the pick: an admin marker ranks first, a quota second.
  const needs = op.access.needs.join(', ');
  const why = [
    post ? 'a reading POST: the document has no GET that needs credentials' : 'a GET that needs credentials',
    op.access.least === 0
      ? 'no scope or role'
      : list.every((o) => o.access.least >= op.access.least)
        ? `the fewest scopes or roles (${needs})`
        : `scopes or roles ${needs} (every candidate with fewer has an admin marker or a quota of its own)`,
    !hasQuota(op, rateLimited)
      ? 'no quota of its own'
      : list.every((o) => hasQuota(o, rateLimited))
        ? 'every candidate has a quota of its own'
        : 'a quota of its own (every candidate without one carries an admin marker)',
    adminScore(op).score > 0 ? 'every candidate carries an admin marker' : '',
    op.filled.length ? `path parameters ${op.filled.join(', ')}` : '',
    other.length ? `not ${other.map(notOk).join(', ')}` : '',
    open.length
      ? `not ${open.map((o) => `${o.method.toUpperCase()} ${o.path} (${quoted(o)})`).join(', ')}`
      : '',
  ].filter(Boolean);
  return { op, reason: why.join('; ') };
}

export function pickAdmin(
  ops: readonly Operation[],
  protectedOp: Operation | undefined,
  rateLimited: ReadonlySet<string>,
): { pick: Pick | undefined; runnerUp: Pick | undefined } {
  const scored = ops
    .filter(
      (o) =>
        o !== protectedOp &&
        !o.access.public &&
        !saidOpen(o) &&
        answers200(o) &&
        o.access.schemes.length > 0 &&
        addressable(o) &&
        (o.method === 'get' || (protectedOp?.method === 'post' && readingPost(o))) &&
        !hasQuota(o, rateLimited),
    )
    .map((op) => ({ op, ...adminScore(op) }))
    .map((s) => ({ ...s, score: s.score + (s.op.access.least > (protectedOp?.access.least ?? 0) ? 1 : 0) }))
    .filter((s) => s.score >= 2)
    .sort((a, b) => b.score - a.score || byAddress(a.op, b.op));
  const [first, second] = scored;
  const asPick = (s: (typeof scored)[number] | undefined) =>
    s === undefined
      ? undefined
      : {
          op: s.op,
          reason: `score ${s.score}: ${s.reasons.join(', ') || 'needs more than the protected one'}`,
        };
  return { pick: asPick(first), runnerUp: asPick(second) };
}

/** `x-gatecheck-rate-limit`'s own operation (`GET /limited` on the mock): never a probe's target. */
export function rateLimitedOperations(doc: Json, extension: string): Set<string> {
  const x = doc[extension];
  if (!isObject(x) || typeof x.path !== 'string') return new Set();
  return new Set([`${typeof x.method === 'string' ? x.method.toUpperCase() : 'GET'} ${x.path}`]);
}
