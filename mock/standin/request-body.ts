/**
 * The request body of an operation, read as the document declares it (OpenAPI 3.1 §4.8.13 Request Body Object):
 * - JSON (`application/json`, `+json`; a body sent without Content-Type is read as JSON, RFC 9110 §8.3) or a
 *   form (`application/x-www-form-urlencoded`, its values typed as the schema's members are), checked against
 *   the document's schema (schema-validator.ts): the document's 400 (or its 422) naming the failing member;
 * - another type than those it declares → 415 with `Accept` naming them (RFC 9110 §15.5.16); a required body
 *   missing → 400 (or its 422);
 * - a body whose schema could not be compiled is taken unchecked, and the journal says so (`outcome`
 *   `body_not_validated` with the reason) — never silently;
 * - a body the operation does not take (a DELETE's, a GET's) is read to its end and dropped, so the connection
 *   stays usable for the next request (RFC 9112 §9.3: the message must be read whole before the next one).
 */
import { isRecord } from '../../shared/is-record.ts';
import { readBoundedBody, tooLargeReply } from '../http/bounded-body.ts';
import { continueBody } from '../http/expect.ts';
import type { Reply } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { OperationPlan } from './plans.ts';
import { invalidStatus, statusProblem } from './problems.ts';

type Json = Record<string, unknown>;

export type BodyRead =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reply: Reply };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** RFC 9112 §6.3: Content-Length or Transfer-Encoding says a body follows. */
export function hasBody(exchange: Exchange): boolean {
  const { headers } = exchange.req;
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
}

const essence = (v: string | undefined) => (v ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
const isJson = (t: string) => t === 'application/json' || /^application\/[\w.+-]*\+json$/.test(t);
const FORM = 'application/x-www-form-urlencoded';

/** A form's values typed as the schema's members are (`PageSize=20` → 20); repeated names as arrays. */
function typedForm(form: URLSearchParams, schema: Json | undefined): Json {
  const properties = isRecord(schema?.properties) ? schema.properties : {};
  const out: Json = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    const p = isRecord(properties[name]) ? properties[name] : {};
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
    const one = (v: string): unknown =>
      (type === 'integer' || type === 'number') && v.trim() !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : type === 'boolean' && (v === 'true' || v === 'false')
          ? v === 'true'
          : v;
    out[name] = type === 'array' || values.length > 1 ? values.map(one) : one(values[0] ?? '');
  }
  return out;
}

function failure(
  plan: OperationPlan,
  errors: readonly { instancePath: string; message?: string; params: Json }[],
): Reply {
  const first = errors[0];
  const member =
    first === undefined
      ? ''
      : typeof first.params.missingProperty === 'string'
        ? `${first.instancePath}/${first.params.missingProperty}`
        : first.instancePath;
  const what = first?.message ?? 'is not what the document states';
  return statusProblem(
    invalidStatus(plan.declared),
    'invalid-body',
    `The request body does not match the document's schema: ${member || 'the body'} ${what}.`,
    { member: member || '/' },
  );
}

/**
 * RFC 8259 §9: "An implementation may set limits on … the maximum depth of nesting" and "on the range and
 * precision of numbers": a body nested deeper than MAX_NESTING, or holding a number beyond the double range
 * (JSON.parse reads it as ±Infinity, which JSON cannot write back), is refused — walked without recursion, so
 * no depth the parser took can overflow the checks and writes that follow.
 */
const MAX_NESTING = 128;

function outOfBounds(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v === 'number' && !Number.isFinite(v))
      return 'A number in the request body is outside the range this server stores (IEEE 754 double).';
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_NESTING)
      return `The request body is nested more than ${MAX_NESTING} levels deep (RFC 8259 §9: a parser may limit nesting).`;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return undefined;
}

/** Reads a body the operation does not take to its end, keeping none of it, before the answer is written. */
export async function drain(exchange: Exchange): Promise<undefined> {
  const { req } = exchange;
  if (!hasBody(exchange) || req.readableEnded) return undefined;
  // A client that sent `Expect: 100-continue` waits for it before the body (RFC 9110 §10.1.1).
  continueBody(req);
  await new Promise<void>((done) => {
    req
      .on('end', done)
      .on('close', done)
      .on('error', () => done());
    req.resume();
  });
  return undefined;
}

export async function readRequest(
  exchange: Exchange,
  plan: OperationPlan,
  maxBodyBytes: number,
): Promise<BodyRead> {
  const { request } = plan;
  if (request.types.length === 0) {
    await drain(exchange);
    return { ok: true, value: undefined };
  }
  if (!hasBody(exchange)) {
    if (!request.required) return { ok: true, value: undefined };
    exchange.outcome = 'body_missing';
    return {
      ok: false,
      reply: statusProblem(
        invalidStatus(plan.declared),
        'invalid-body',
        'The operation requires a request body.',
        {
          member: '/',
        },
      ),
    };
  }
  const sent = essence(exchange.req.headers['content-type']);
  const declared =
    sent === ''
      ? (request.types.find(isJson) ?? request.types[0] ?? '')
      : request.types.find((t) => t === sent || t === '*/*' || (isJson(t) && isJson(sent)));
  // `*/*` takes anything: read as what was sent (JSON when nothing was said).
  const type = declared === '*/*' ? (sent === '' ? 'application/json' : sent) : declared;
  if (type === undefined || (!isJson(type) && type !== FORM)) {
    // A declared type the mock does not read (multipart, octet-stream, text): taken as it is, unchecked.
    if (type !== undefined) {
      exchange.outcome = 'body_not_validated';
      exchange.outcomeReason = `the request body is ${type}, which the mock does not check`;
      await drain(exchange);
      return { ok: true, value: undefined };
    }
    await drain(exchange);
    return {
      ok: false,
      reply: statusProblem(
        415,
        'unsupported-media-type',
        `The request body must be ${request.types.join(' or ')}.`,
        undefined,
        { accept: request.types.join(', ') },
      ),
    };
  }
  const read = await readBoundedBody(exchange.req, maxBodyBytes);
  if (!read.ok) {
    exchange.outcome = read.why === 'too-large' ? 'body_too_large' : 'body_incomplete';
    return {
      ok: false,
      reply:
        read.why === 'too-large'
          ? tooLargeReply(exchange.req, maxBodyBytes)
          : statusProblem(400, 'invalid-body', 'The request body was not received completely.'),
    };
  }
  let value: unknown;
  try {
    const text = utf8.decode(read.bytes);
    value = type === FORM ? typedForm(new URLSearchParams(text), request.schema) : JSON.parse(text);
  } catch (error) {
    exchange.outcome = 'body_not_json';
    const detail =
      error instanceof RangeError
        ? 'The request body is nested too deeply (RFC 8259 §9: a parser may limit nesting).'
        : `The request body is not valid ${type === FORM ? 'UTF-8' : 'JSON'}.`;
    return { ok: false, reply: statusProblem(400, 'invalid-body', detail) };
  }
  const bounds = outOfBounds(value);
  if (bounds !== undefined) {
    exchange.outcome = 'body_out_of_bounds';
    return { ok: false, reply: statusProblem(400, 'invalid-body', bounds) };
  }
  const compiled = request.compiled();
  if (compiled === undefined) {
    exchange.outcome = 'body_not_validated';
    exchange.outcomeReason = 'the document states no schema for this request body';
  } else if (compiled.validate === undefined) {
    exchange.outcome = 'body_not_validated';
    exchange.outcomeReason = `the request body's schema does not compile: ${compiled.reason}`;
  } else if (!compiled.validate(value)) {
    exchange.outcome = 'body_schema';
    return { ok: false, reply: failure(plan, (compiled.validate.errors ?? []) as never) };
  }
  return { ok: true, value };
}
