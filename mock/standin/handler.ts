/**
 * Stage 8 for a document the mock stands in for: answers as the document's responses say (plans.ts) over the
 * stand-in's data (data.ts) — GET an item: the item or 404; GET a list: the items under it (seeded from
 * its example, changed by writes); GET anything else: its example; POST on a collection: a new item, the document's own status
 * (201 with Location, RFC 9110 §15.3.2); PUT and PATCH: the item replaced or merged (RFC 7396), 404 when
 * absent; DELETE: removed, 404 when absent. A JSON request body is checked against the document's schema
 * first: 400 naming the failing member, 415 for a body declared in another format (RFC 9110 §15.5.16).
 */

import { isRecord } from '../../shared/is-record.ts';
import { readJsonObject } from '../http/body.ts';
import { declaresJson } from '../http/content-type.ts';
import { problem } from '../http/problem.ts';
import { BASE_HEADERS, jsonReply, type Reply } from '../http/reply.ts';
import { type Exchange, missing, type Stage } from '../pipeline/exchange.ts';
import { memberAt, type StandInData, withMember } from './data.ts';
import type { DocumentFault } from './extensions.ts';
import type { OperationPlan } from './plans.ts';

type Json = Record<string, unknown>;

const NO_ITEM = problem('not-found', 'No item at this path.');
const NOT_JSON = problem('unsupported-media-type', 'The request body must be declared as application/json.', {
  accept: 'application/json',
});
const INCOMPLETE = problem('invalid-body', 'The request body was not received completely.');

function answer(plan: OperationPlan, body: unknown, headers?: Record<string, string>): Reply {
  if (plan.status === 204 || body === undefined)
    return { status: plan.status, headers: { ...BASE_HEADERS, ...headers }, body: undefined };
  return jsonReply(plan.status, body, headers);
}

/** A request that carries a body (RFC 9112 §6.3: Content-Length or Transfer-Encoding says so). */
function hasBody(exchange: Exchange): boolean {
  const { headers } = exchange.req;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}

/** Ajv's first error as the member it names (`/name`, a missing `/tag`) and what it expected. */
function failure(errors: readonly { instancePath: string; message?: string; params: Json }[]): Reply {
  const first = errors[0];
  const member =
    first === undefined
      ? ''
      : typeof first.params.missingProperty === 'string'
        ? `${first.instancePath}/${first.params.missingProperty}`
        : first.instancePath;
  const what = first?.message ?? 'is not what the document states';
  return problem(
    'invalid-body',
    `The request body does not match the document's schema: ${member || 'the body'} ${what}.`,
    undefined,
    { member: member || '/' },
  );
}

export function standInHandler(data: StandInData, maxBodyBytes: number, fault?: DocumentFault): Stage {
  const lists = new Map<string, { version: number; plan: OperationPlan; reply: Reply }>();
  const withBody = async (
    exchange: Exchange,
    plan: OperationPlan,
    then: (body: Json | undefined) => Reply,
  ): Promise<Reply> => {
    if (!plan.takesJson || (!hasBody(exchange) && !plan.bodyRequired)) return then(undefined);
    if (!declaresJson(exchange.req.headers['content-type'])) return NOT_JSON;
    const read = await readJsonObject(exchange.req, maxBodyBytes);
    if (!read.ok) {
      exchange.outcome = read.code;
      return read.reply ?? INCOMPLETE;
    }
    const validate = plan.validator();
    if (validate !== undefined && !validate(read.value)) {
      exchange.outcome = 'body_schema';
      return failure((validate.errors ?? []) as never);
    }
    return then(read.value);
  };

  return (exchange) => {
    const plan = (exchange.rule as unknown as { plan?: OperationPlan } | undefined)?.plan ?? missing('plan');
    const failed = fault?.check(exchange, plan.template);
    if (failed !== undefined) return failed;
    const { path } = exchange;
    switch (plan.method) {
      case 'GET': {
        // Serialised once per path and data version, as the default handler does (mock/pipeline/handler.ts).
        const hit = lists.get(path);
        if (hit !== undefined && hit.version === data.version && hit.plan === plan) return hit.reply;
        let reply: Reply;
        if (plan.item) {
          const item = data.read(path);
          if (item === undefined) return NO_ITEM;
          reply = answer(plan, item);
        } else {
          // A list the document exemplifies is the collection's items, seeded from it and changed by writes.
          const items = Array.isArray(plan.body) ? data.under(path) : undefined;
          reply = answer(plan, items ?? plan.body);
        }
        if (lists.size >= 1000) lists.clear();
        lists.set(path, { version: data.version, plan, reply });
        return reply;
      }
      case 'POST':
        return withBody(exchange, plan, (body) => {
          if (!plan.creates) return answer(plan, plan.body);
          const made = data.create(path, body ?? {}, plan.idField, plan.numericId);
          return answer(plan, made.item, plan.status === 201 ? { location: made.path } : undefined);
        });
      case 'PUT':
      case 'PATCH': {
        if (plan.item && data.read(path) === undefined) return NO_ITEM;
        return withBody(exchange, plan, (body) => {
          if (!plan.item) return answer(plan, plan.body);
          const before = data.read(path);
          if (before === undefined) return NO_ITEM;
          // RFC 7396: a merge patch's null removes a member; the id is the item's own either way.
          let merged: Json =
            plan.method === 'PATCH' && isRecord(before) ? { ...before, ...body } : { ...(body ?? {}) };
          if (plan.method === 'PATCH')
            for (const [k, v] of Object.entries(body ?? {})) if (v === null) delete merged[k];
          const id = memberAt(before, plan.idField);
          if (id !== undefined) merged = withMember(merged, plan.idField, id);
          data.replace(path, merged);
          return answer(plan, merged);
        });
      }
      case 'DELETE': {
        if (!plan.item) return answer(plan, plan.body);
        const before = data.read(path);
        if (before === undefined || !data.remove(path)) return NO_ITEM;
        return answer(plan, plan.body === undefined ? undefined : before);
      }
      default:
        return answer(plan, plan.body);
    }
  };
}
