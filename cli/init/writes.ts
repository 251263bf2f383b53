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

type Json = Record<string, unknown>;

/** Path words of collections whose POST starts work, sends something or creates something billed. */
const COSTLY_SEGMENT =
  /^(jobs?|runs?|builds?|deploy(ments?)?|executions?|execute|exec|actions?|tasks?|workflows?|pipelines?|batch(es)?|queues?|send|mail|messages?|sms|calls?|emails?|notifications?|payments?|charges?|invoices?|billing|orders?|checkout|subscriptions?|purchases?|droplets?|instances?|servers?|clusters?|vms?|machines?|volumes?|databases?|snapshots?|backups?|restores?|imports?|exports?|scans?|syncs?|completions?|chat|embeddings?|generations?|fine[_-]?tun\w*|responses|images|audio|videos?|uploads?|files?|assets?|trigger|start|stop|restart|reboot|resize)$/i;
/** The same, said by its summary or description. */
const COSTLY_TEXT =
  /\b(starts?|runs?|queues?|triggers?|executes?|schedules?) (a |the |an )?(job|task|build|run|backup|scan|workflow|deployment)|\bjob\b|\bbill(ed|ing|able)?\b|\bcharged?\b|\bcosts?\b|\bpric(e|ing)\b|\binvoice|\bsends? (an? )?(e-?mail|message|sms)|asynchronous|\bprovision/i;

export interface CollectionPick {
  readonly post: Operation & { address: string };
  /** The item path's operations (`/x/{id}`). */
  readonly item: {
    readonly put?: Operation;
    readonly patch?: Operation;
    readonly delete: Operation;
    readonly get?: Operation;
  };
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
  return schema !== undefined && Array.isArray(schema.required) ? schema.required.length : 0;
}

/** Every POST on a collection whose items can be deleted, split into safe picks (best first) and refusals. */
export function collectionCandidates(ops: readonly Operation[]): {
  picks: CollectionPick[];
  refused: Refusal[];
} {
  const picks: (CollectionPick & { rank: number[] })[] = [];
  const refused: Refusal[] = [];
  for (const post of ops) {
    if (post.method !== 'post' || post.access.public || post.access.schemes.length === 0) continue;
    if (!addressable(post)) continue;
    const itemOps = ops.filter(
      (o) =>
        o.path.startsWith(`${post.path.replace(/\/$/, '')}/{`) &&
        /^\/\{[^}/]+\}$/.test(o.path.slice(post.path.replace(/\/$/, '').length)) &&
        o.server?.written === post.server?.written,
    );
    const of = (m: string) => itemOps.find((o) => o.method === m);
    const del = of('delete');
    // DELETE removes what the rules create (a check leaves no litter); PUT is preferred, and its absence said.
    if (del === undefined) continue;
    const cost = costOf(post);
    if (cost !== undefined) {
      refused.push({ op: post, why: cost });
      continue;
    }
    const crud = Number(of('get') !== undefined) + Number(of('put') !== undefined);
    const size = requiredCount(post.body);
    const item = {
      delete: del,
      ...(of('put') ? { put: of('put') } : {}),
      ...(of('patch') ? { patch: of('patch') } : {}),
      ...(of('get') ? { get: of('get') } : {}),
    };
    picks.push({
      post,
      item,
      rank: [-crud, size, post.access.least, post.address.length],
      reason: `an item path with ${itemOps.map((o) => o.method.toUpperCase()).join(', ')}; ${size} required field${size === 1 ? '' : 's'}`,
    });
  }
  picks.sort((a, b) => {
    for (let i = 0; i < a.rank.length; i++)
      if (a.rank[i] !== b.rank[i]) return (a.rank[i] as number) - (b.rank[i] as number);
    return 0;
  });
  return { picks, refused };
}

/** A JSON value a JSON Schema accepts, from its `example`, `default`, `enum` or type: a guess to confirm. */
export function sampleOf(schema: Json, depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || isObject(schema.properties)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    // Without `required`, every property but an `id` the server assigns.
    const required = Array.isArray(schema.required)
      ? schema.required.map(String)
      : Object.keys(properties).filter((name) => name !== 'id');
    const out: Json = {};
    if (depth < 3)
      for (const name of required) {
        const property = properties[name];
        if (isObject(property) && property.readOnly !== true) out[name] = sampleOf(property, depth + 1);
      }
    return out;
  }
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (schema.format === 'email') return 'probe@example.test';
  return 'gatecheck-probe';
}

/**
 * The field of the created item that holds its id: `id` when the POST's answer has one, else the item path's
 * parameter name when the answer has that field (SendGrid's `api_key_id`), else undefined.
 */
export function idFieldOf(pick: CollectionPick): string | undefined {
  const properties = isObject(pick.post.answer?.properties) ? pick.post.answer.properties : undefined;
  if (properties === undefined) return undefined;
  if ('id' in properties) return 'id';
  const parameter = /\{([^}]+)\}$/.exec(pick.item.delete.path)?.[1];
  return parameter !== undefined && parameter in properties ? parameter : undefined;
}
