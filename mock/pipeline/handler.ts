/**
 * Stage 7, handler (200/400/404). Every success is 200 — POST included (seed §4 rule 2: "A 200 response is
 * returned when GET, POST, PUT or DELETE completes successfully"; json-server's 201 is not used).
 * Unknown id → 404. Bad body or query → 400; a body declared in another format than JSON → 415 (RFC 9110
 * §15.5.16), before it is read. Anything thrown escapes to the app's 500 guard.
 */

import { readJsonObject } from '../http/body.ts';
import { declaresJson } from '../http/content-type.ts';
import { problem } from '../http/problem.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import { QueryError, type ResourceEngine } from '../resources/types.ts';
import { missing, type Stage } from './exchange.ts';

const NO_ITEM = problem('not-found', 'No item with this id.');
const BODY_INCOMPLETE = problem('invalid-body', 'The request body was not received completely.');
const NOT_JSON = problem('unsupported-media-type', 'The request body must be declared as application/json.', {
  accept: 'application/json',
});

export function handlerStage(engine: ResourceEngine, maxBodyBytes: number): Stage {
  /**
   * The hot path: a GET without a query string on a whole resource is serialised once per data version and
   * the same Reply (headers object and body buffer) is written until the next write.
   */
  const cache = new Map<string, { version: number; reply: Reply }>();

  const whole = (resource: string): Reply => {
    const hit = cache.get(resource);
    if (hit !== undefined && hit.version === engine.version) return hit.reply;
    const version = engine.version;
    const value = engine.list(resource, '');
    if (value === undefined) return NO_ITEM;
    const reply = jsonReply(200, value);
    cache.set(resource, { version, reply });
    return reply;
  };

  const badQuery = (err: unknown): Reply => {
    if (err instanceof QueryError) return problem('bad-request', `Invalid query: ${err.message}.`);
    throw err;
  };

  return (exchange) => {
    const { route, id } = exchange.match ?? missing('match');
    const rule = exchange.rule ?? missing('rule');
    const { resource } = route;
    switch (rule.operation) {
      case 'list': {
        if (exchange.query === '') return whole(resource);
        try {
          const value = engine.list(resource, exchange.query);
          return value === undefined ? NO_ITEM : jsonReply(200, value);
        } catch (err) {
          return badQuery(err);
        }
      }
      case 'read': {
        try {
          const item = engine.read(resource, id ?? missing('id'), exchange.query);
          return item === undefined ? NO_ITEM : jsonReply(200, item);
        } catch (err) {
          return badQuery(err);
        }
      }
      case 'remove':
        return engine.remove(resource, id ?? missing('id')).then(found);
      default:
        if (!declaresJson(exchange.req.headers['content-type'])) return NOT_JSON;
        return readJsonObject(exchange.req, maxBodyBytes).then((body) => {
          if (!body.ok) {
            // For the journal, and the defect modes that key on why a body was refused.
            exchange.outcome = body.code;
            return body.reply ?? BODY_INCOMPLETE;
          }
          if (rule.operation === 'create') return engine.create(resource, body.value).then(found);
          if (rule.operation === 'replace') return engine.replace(resource, id, body.value).then(found);
          return engine.patch(resource, id, body.value).then(found);
        });
    }
  };
}

function found(value: unknown): Reply {
  return value === undefined ? NO_ITEM : jsonReply(200, value);
}
