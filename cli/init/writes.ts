/**
 * The collection the write rules create, change and delete an item in (seed §4 rule 2: POST, PUT, DELETE).
 * Writes change the target, so init picks one only when asked (`--writes`), and never a collection whose POST
 * could start work or cost money: a job, a run, a send, a deployment, a machine, a payment, or an answer
 * `202 Accepted` (RFC 9110 §15.3.3: "the request has been accepted for processing"). Among the rest it prefers
 * CRUD-looking paths (an item path with GET, PUT and DELETE; DELETE is required, so the rules leave no item
 * behind) and small items (fewest required fields).
 */
import { isObject } from './document-extensions.ts';
import type { Operation } from './operations.ts';
import { addressable } from './picks.ts';
import { merged, sampleOf } from './sample-item.ts';
import type { ProfileScheme } from './security.ts';
import { writeWords } from './write-words.ts';

type Json = Record<string, unknown>;

/** Path words of collections whose POST starts work, sends something or creates something billed. */
const COSTLY_SEGMENT =
  /^(jobs?|runs?|builds?|deploy(ments?)?|executions?|execute|exec|actions?|tasks?|workflows?|pipelines?|batch(es)?|queues?|send|mail|messages?|sms|calls?|emails?|notifications?|payments?|charges?|invoices?|billing|orders?|checkout|subscriptions?|purchases?|droplets?|instances?|servers?|clusters?|vms?|machines?|volumes?|databases?|snapshots?|backups?|restores?|imports?|exports?|scans?|syncs?|completions?|chat|embeddings?|generations?|fine[_-]?tun\w*|responses|images|audio|videos?|uploads?|files?|assets?|trigger|start|stop|restart|reboot|resize)$/i;
/**
 * The same, said by its summary or description. Not the noun "bill" (issue #69: a document's harmless bills,
 * "Creates a new bill", were refused for it): billing, billed, billable.
 */
const COSTLY_TEXT =
  /\b(starts?|runs?|queues?|triggers?|executes?|schedules?) (a |the |an )?(job|task|build|run|backup|scan|workflow|deployment)|\bjob\b|\bbill(ed|ing|able)\b|\bcharged?\b|\bcosts?\b|\bpric(e|ing)\b|\binvoice|\bsends? (an? )?(e-?mail|message|sms)|asynchronous|\bprovision/i;

/** Path words of collections whose items grant access or are someone: chosen only when nothing else exists. */
const ACCESS_SEGMENT =
  /^(users?|accounts?|members?|memberships?|people|persons?|admins?|staff|keys?|api[_-]?keys?|apikeys?|tokens?|access[_-]?tokens?|credentials?|roles?|groups?|teams?|permissions?|grants?|policies|invitations?|invites?|service[_-]?accounts?|clients?|applications?|apps?|ssh[_-]?keys?|secrets?|identities|sessions?|organi[sz]ations?|orgs?|tenants?|realms?)$/i;

export interface CollectionPick {
  readonly post: Operation & { address: string };
  /** The item path's operations (`/x/{id}`, `/x/{id}/`, `/x/{Sid}.json`). */
  readonly item: {
    readonly put?: Operation;
    readonly patch?: Operation;
    readonly delete: Operation;
    readonly get?: Operation;
  };
  /** The item path as the suite addresses it, `{id}` for the id, when it is not `<path>/{id}`. */
  readonly itemPath: string | undefined;
  /** The item the write rules POST (sample-item.ts): required members and a marker name. */
  readonly sample: Json;
  /** The PUT's schema required members the POST's does not: they are in the sample too. */
  readonly sampleFromPut: boolean;
  /** The schemes POST, PUT and DELETE all accept: a writer must be able to clean up after itself. */
  readonly writeSchemes: readonly ProfileScheme[];
  /**
   * Why its items grant access or are someone, or undefined: its path names users, keys, tokens, roles… (`its
   * items are users — …`), or its words say it changes access control (write-words.ts).
   */
  readonly grantsAccess: string | undefined;
  readonly reason: string;
}

export interface Refusal {
  readonly op: Operation;
  readonly why: string;
}

/** Why a POST may start work or cost money, or undefined. */
export function costOf(op: Operation): string | undefined {
  const segment = op.path.split('/').find((s) => COSTLY_SEGMENT.test(s.replace(/\.json$/, '')));
  if (segment !== undefined) return `its path names ${segment}`;
  if (op.successes.includes(202)) return 'it answers 202 Accepted (work done later)';
  const text = COSTLY_TEXT.exec(op.text);
  if (text !== null) return `its description says "${text[0]}"`;
  return undefined;
}

function requiredCount(schema: Json | undefined): number {
  const m = schema === undefined ? undefined : merged(schema);
  return m !== undefined && Array.isArray(m.required) ? m.required.length : 0;
}

/** `/tags/`, `/Calls.json` → `/tags`, `/Calls`: the collection path an item path extends. */
const collectionBase = (path: string) => path.replace(/\/$/, '').replace(/\.(json|xml)$/, '');
/** `/{id}`, `/{id}/`, `/{Sid}.json` after the base: the item path's id parameter and its suffix. */
const ITEM_TAIL = /^\/\{([^}/]+)\}(\/|\.json|\.xml)?$/;

/** The item operations of `post`'s collection on the same server. */
function itemOperations(
  post: Operation,
  ops: readonly Operation[],
): { list: Operation[]; param?: string; suffix: string } {
  const base = collectionBase(post.path);
  const list = ops.filter(
    (o) =>
      o.path.startsWith(`${base}/{`) &&
      ITEM_TAIL.test(o.path.slice(base.length)) &&
      o.server?.written === post.server?.written,
  );
  const tail = list[0] === undefined ? undefined : ITEM_TAIL.exec(list[0].path.slice(base.length));
  return { list, ...(tail?.[1] === undefined ? {} : { param: tail[1] }), suffix: tail?.[2] ?? '' };
}

/**
 * Why the item the rules create cannot be removed again, or undefined: the DELETE must take a scheme the POST
 * takes, need no parameter to guess beyond the item's id, and hold no reference the document leaves dangling.
 */
function cleanupProblem(post: Operation, del: Operation, param: string | undefined): string | undefined {
  if (!del.access.schemes.some((s) => post.access.schemes.includes(s)))
    return `DELETE ${del.path} accepts none of the schemes POST ${post.path} accepts`;
  if (del.requiredExtras.length > 0) return `DELETE ${del.path} needs ${del.requiredExtras.join(', ')}`;
  if (del.dangling) return `DELETE ${del.path} holds a $ref the document does not resolve`;
  const others = del.unfilled.filter((n) => n !== param && !post.path.includes(`{${n}}`));
  if (others.length > 0)
    return `DELETE ${del.path} needs ${others.join(', ')}, which the document gives no value for`;
  return undefined;
}

/** `a` with the members only `b` has, object members merged the same way (a's values win). */
function withMembersOf(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b))
    if (out[k] === undefined) out[k] = v;
    else if (isObject(out[k]) && isObject(v)) out[k] = withMembersOf(out[k] as Json, v);
  return out;
}

/**
 * The item the rules POST and then PUT back (specs/conformance/success.spec.ts sends the same body): the POST
 * body's required members, and those the PUT's schema requires on top (Ory Kratos's update requires `state`,
 * its create does not), so that the PUT is not refused for a member the POST could omit. The POST's alone when
 * the PUT's sample cannot be made harmlessly.
 */
function sampleFor(
  post: Operation,
  put: Operation | undefined,
): { value: unknown; fromPut?: true } | { refused: string } {
  if (post.body === undefined) return { value: {} };
  const own = sampleOf(post.body);
  if (put?.body === undefined || !('value' in own) || !isObject(own.value)) return own;
  const more = sampleOf(put.body);
  if (!('value' in more) || !isObject(more.value)) return own;
  const value = withMembersOf(own.value, more.value);
  return JSON.stringify(value) === JSON.stringify(own.value) ? own : { value, fromPut: true };
}

/** Every POST on a collection whose items can be deleted, split into safe picks (best first) and refusals. */
export function collectionCandidates(ops: readonly Operation[]): {
  picks: CollectionPick[];
  refused: Refusal[];
  /** POSTs whose item path takes DELETE but that take no scheme the profile sends in Authorization. */
  unsent: Operation[];
} {
  const picks: (CollectionPick & { rank: number[] })[] = [];
  const refused: Refusal[] = [];
  const unsent: Operation[] = [];
  for (const post of ops) {
    if (post.method !== 'post') continue;
    const { list: itemOps, param, suffix } = itemOperations(post, ops);
    const of = (m: string) => itemOps.find((o) => o.method === m);
    const del = of('delete');
    // DELETE removes what the rules create (a check leaves no litter); PUT is preferred, and its absence said.
    if (del === undefined) continue;
    // The write rules send credentials in Authorization: a write that takes none there is no candidate, and
    // the to-do says so rather than that no item path takes DELETE (issue #69).
    if (post.access.public || post.access.schemes.length === 0) {
      unsent.push(post);
      continue;
    }
    if (!addressable(post)) continue;
    // What the POST says it does first (write-words.ts), then what its name and answer reveal.
    const words = writeWords(post);
    const cost = words.refuse ?? costOf(post);
    if (cost !== undefined) {
      refused.push({ op: post, why: cost });
      continue;
    }
    const cleanup = cleanupProblem(post, del, param);
    if (cleanup !== undefined) {
      refused.push({ op: post, why: `the item could not be removed: ${cleanup}` });
      continue;
    }
    const made = sampleFor(post, of('put'));
    if (!('value' in made) || !isObject(made.value)) {
      refused.push({
        op: post,
        why: 'refused' in made ? made.refused : 'its request body is not a JSON object',
      });
      continue;
    }
    const put = of('put');
    const writeSchemes = post.access.schemes.filter(
      (s) => del.access.schemes.includes(s) && (put === undefined || put.access.schemes.includes(s)),
    );
    const segment = post.path
      .split('/')
      .map((s) => s.replace(/\.(json|xml)$/, ''))
      .filter((s) => s !== '' && !s.startsWith('{'))
      .reverse()
      .find((s) => ACCESS_SEGMENT.test(s.replace(/-/g, '_')));
    const crud = Number(of('get') !== undefined) + Number(put !== undefined);
    const size = requiredCount(post.body);
    const item = {
      delete: del,
      ...(put ? { put } : {}),
      ...(of('patch') ? { patch: of('patch') } : {}),
      ...(of('get') ? { get: of('get') } : {}),
    };
    const base = collectionBase(post.address);
    const itemPath = suffix !== '' || post.address.endsWith('/') ? `${base}/{id}${suffix}` : undefined;
    // The cleanup needs the created item's id: an answer whose members hold none, or an item path that takes
    // no id (`{username}`) the answer states, would leave the item behind. An answer the document does not
    // describe leaves the suite's default `id`, said in the to-do.
    const described = post.answer !== undefined && isObject(merged(post.answer).properties);
    if (
      idFieldOf({ post, item }) === undefined &&
      (described || !/(id|gid|sid|uuid|key)$/i.test(param ?? 'id'))
    ) {
      refused.push({
        op: post,
        why: `the item could not be removed: the answer names no field for the id ${del.path} takes`,
      });
      continue;
    }
    picks.push({
      post,
      item,
      itemPath,
      sample: made.value,
      sampleFromPut: 'fromPut' in made,
      writeSchemes,
      grantsAccess:
        segment !== undefined ? `its items are ${segment} — they grant access or are someone` : words.grants,
      rank: [
        Number(segment !== undefined || words.grants !== undefined),
        -crud,
        size,
        post.access.least,
        post.address.length,
      ],
      reason: `an item path with ${itemOps.map((o) => o.method.toUpperCase()).join(', ')}; ${size} required field${size === 1 ? '' : 's'}`,
    });
  }
  picks.sort((a, b) => {
    for (let i = 0; i < a.rank.length; i++)
      if (a.rank[i] !== b.rank[i]) return (a.rank[i] as number) - (b.rank[i] as number);
    return 0;
  });
  return { picks, refused, unsent };
}

/** `id`, the path parameter's own name, or the one `…Id` / `…_id` member: the id among `properties`. */
function idAmong(properties: Json, parameter: string | undefined): string | undefined {
  if (parameter !== undefined && parameter in properties) return parameter;
  const plain = (n: string) => n.toLowerCase().replace(/[_-]/g, '');
  const same =
    parameter === undefined ? undefined : Object.keys(properties).find((n) => plain(n) === plain(parameter));
  if (same !== undefined) return same;
  // A path parameter that names no id (`{username}`, `{slug}`) is not addressed by the item's `id`.
  if (parameter !== undefined && !/(id|gid|sid|uuid|key)$/i.test(parameter)) return undefined;
  if ('id' in properties) return 'id';
  if (parameter === undefined) return undefined;
  // `{tag_gid}` → `gid`: the member the parameter's name ends with.
  const tail = Object.keys(properties).find((n) => n.length >= 2 && plain(parameter).endsWith(plain(n)));
  if (tail !== undefined) return tail;
  const ids = Object.keys(properties).filter((n) => /(Id|_id|ID|Sid|_sid)$/.test(n));
  return ids.length === 1 ? ids[0] : undefined;
}

/**
 * The field of the created item that holds its id, through `allOf` and a wrapper (`{"data": {...}}` →
 * `data.id`): `id` when the POST's answer has one, else the item path's parameter name or a `…Id` name like
 * it (SendGrid's `api_key_id`, `orgId`), else undefined.
 */
export function idFieldOf(pick: Pick<CollectionPick, 'post' | 'item'>): string | undefined {
  return idFieldOfAnswer(pick.post.answer, pick.item.delete.path);
}

/** idFieldOf from the POST's answer schema and the item path (the stand-in's reading too, mock/standin/plans.ts). */
export function idFieldOfAnswer(schema: Json | undefined, itemPath: string): string | undefined {
  const answer = schema === undefined ? undefined : merged(schema);
  const properties = isObject(answer?.properties) ? answer.properties : undefined;
  if (properties === undefined) return undefined;
  const parameter = /\{([^}]+)\}[^{}]*$/.exec(itemPath)?.[1];
  const direct = idAmong(properties, parameter);
  if (direct !== undefined) return direct;
  // A wrapper: one member holding the item (data, item, result, or the resource's own name).
  const wrappers = Object.entries(properties)
    .map(([n, v]) => [n, isObject(v) ? merged(v) : {}] as const)
    .filter(([, v]) => isObject(v.properties));
  if (wrappers.length !== 1) return undefined;
  const [name, inner] = wrappers[0] as readonly [string, Json];
  const nested = idAmong(inner.properties as Json, parameter);
  return nested === undefined ? undefined : `${name}.${nested}`;
}
