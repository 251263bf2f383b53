/**
 * Stage 8 for a document the mock stands in for: answers each operation by its role (plans.ts) over the
 * stand-in's store (store.ts) — a collection's list, create, read, replace, patch, remove and clear
 * (collection-handler.ts); a login that checks the name and password given (login.ts); the caller's own record
 * (current-user.ts); an object that PUT and PATCH change; anything else with its declared answer — in the media
 * type the request accepts among those declared (media.ts). The request body is read and checked first
 * (request-body.ts); a body an operation does not take is read and dropped. A GET answer is serialised once
 * per path, query, media type and data version.
 */
import type { Reply } from '../http/reply.ts';
import { type Exchange, missing, type Stage } from '../pipeline/exchange.ts';
import { change, clear, create, list, mergePatch, read, remove } from './collection-handler.ts';
import { overlay } from './current-user.ts';
import type { DocumentFault } from './extensions.ts';
import type { StandInIdentity } from './identities.ts';
import { whoLogsIn } from './login.ts';
import { chooseMedia, type MediaType } from './media.ts';
import type { OperationPlan } from './plans.ts';
import { statusProblem } from './problems.ts';
import { answerReply } from './reply.ts';
import { readRequest } from './request-body.ts';
import type { StandInStore } from './store.ts';

export interface HandlerOptions {
  readonly store: StandInStore;
  readonly maxBodyBytes: number;
  readonly fault: DocumentFault | undefined;
  readonly identities: readonly StandInIdentity[];
  /** A credential the mock accepts for the identity: its key, or a token it signs. */
  credentialOf(identity: StandInIdentity, now: number): Promise<string | undefined>;
}

/** Roles whose GET answer depends only on the path, the query and the data. */
const CACHED = new Set(['list', 'export', 'read', 'other', 'singleton']);

export function standInHandler(options: HandlerOptions): Stage {
  const { store, maxBodyBytes, fault } = options;
  const cache = new Map<string, { version: number; reply: Reply }>();

  const whoIs = (exchange: Exchange) => options.identities.find((i) => i.name === exchange.identity?.id);

  const answer = async (
    exchange: Exchange,
    plan: OperationPlan,
    media: MediaType | undefined,
  ): Promise<Reply> => {
    const got = await readRequest(exchange, plan, maxBodyBytes);
    if (!got.ok) return got.reply;
    const request = { exchange, plan, media, store, body: got.value };
    switch (plan.role) {
      case 'list':
        // A list path whose GET declares an answer that is no list answers it as declared.
        if (plan.list === undefined && plan.media.some((m) => m.schema !== undefined))
          return answerReply(plan.status, media, plan.answer(media));
        return list(request);
      case 'export':
        return list(request);
      case 'read':
        return read(request);
      case 'create':
        return create(request);
      case 'replace':
      case 'patch':
        return change(request);
      case 'remove':
        return remove(request);
      case 'clear':
        return clear(request);
      case 'login': {
        const login = plan.login ?? missing('login');
        const query = new URLSearchParams(exchange.query);
        const identity = whoLogsIn(login, got.value, query, options.identities);
        if (identity === undefined) {
          exchange.outcome = 'login_refused';
          return statusProblem(login.failure, 'invalid-credentials', 'The user name or password is wrong.');
        }
        const credential = await options.credentialOf(identity, exchange.now);
        return answerReply(plan.status, media, overlay(plan.answer(media), { identity, credential }));
      }
      case 'current':
        return current(exchange, plan, media, got.value);
      case 'singleton': {
        const path = exchange.path;
        if (plan.method === 'GET')
          return answerReply(plan.status, media, store.singleton(path) ?? plan.answer(media));
        const before = store.singleton(path) ?? plan.answer(media);
        const next = plan.method === 'PATCH' ? mergePatch(before, got.value) : (got.value ?? before);
        store.setSingleton(path, next);
        return answerReply(plan.status, media, plan.media.length === 0 ? undefined : next);
      }
      default:
        return answerReply(plan.status, media, plan.answer(media));
    }
  };

  /** The caller's own record: what it wrote (PUT/PATCH), else the declared record, as that identity. */
  const current = (
    exchange: Exchange,
    plan: OperationPlan,
    media: MediaType | undefined,
    body: unknown,
  ): Reply => {
    const identity = whoIs(exchange);
    const path = `${exchange.path}#${identity?.name ?? ''}`;
    const base = store.singleton(path) ?? plan.answer(media);
    if (plan.method !== 'GET') {
      const next = plan.method === 'PATCH' ? mergePatch(base, body) : (body ?? base);
      store.setSingleton(path, next);
      return answerReply(plan.status, media, plan.media.length === 0 ? undefined : next);
    }
    const value = identity === undefined ? base : overlay(base, { identity, credential: undefined });
    return answerReply(plan.status, media, value);
  };

  return async (exchange) => {
    const plan = (exchange.rule as unknown as { plan?: OperationPlan } | undefined)?.plan ?? missing('plan');
    const failed = fault?.check(exchange, plan.template);
    if (failed !== undefined) return failed;
    const media = chooseMedia(plan.media, exchange.req.headers.accept);
    if (
      plan.method !== 'GET' ||
      !CACHED.has(plan.role) ||
      exchange.req.headers['content-length'] !== undefined ||
      exchange.req.headers['transfer-encoding'] !== undefined
    )
      return answer(exchange, plan, media);
    const key = `${plan.template} ${exchange.path}?${exchange.query} ${media?.type ?? ''}`;
    const hit = cache.get(key);
    if (hit !== undefined && hit.version === store.version) return hit.reply;
    const reply = await answer(exchange, plan, media);
    if (cache.size >= 1000) cache.clear();
    if (reply.status < 300) cache.set(key, { version: store.version, reply });
    return reply;
  };
}
