/**
 * The stand-in's data half measured from outside, on one document (issue #70): the mock started in this
 * process on 127.0.0.1, the admin's credentials for each operation's first alternative (as `--print-env`
 * prints them), then
 * - every create (POST on a collection with an item path) sent a body init would send (cli/init/sample-item.ts
 *   `sampleOf`), and its answer's `Location` read back (200 expected);
 * - every GET sent — at its documented address, else at a created item's, else with `gatecheck` for each
 *   parameter — and each 2xx answer validated against the schema its status declares for its media type;
 * - the operations whose body the mock does not check (its own list, as the banner prints it).
 */

import { type Operation, readOperations } from '../../cli/init/operations.ts';
import { readOpenApi } from '../../cli/init/read-document.ts';
import { sampleOf } from '../../cli/init/sample-item.ts';
import { readCarriers, requirementsOf } from '../../cli/init/security.ts';
import { startMock } from '../../mock/server.ts';
import { splitItem } from '../../mock/standin/collections.ts';
import { mediaTypesOf } from '../../mock/standin/media.ts';
import { dialectOf } from '../../mock/standin/schema-dialect.ts';
import { compileSchema } from '../../mock/standin/schema-validator.ts';
import { type DocumentScheme, readDocumentSchemes } from '../../mock/standin/schemes.ts';
import { servedTemplate } from '../../mock/standin/served-paths.ts';
import type { Unvalidated } from '../../mock/standin/unvalidated.ts';
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

export interface GetResult {
  readonly path: string;
  readonly status: number;
  /** undefined: nothing to validate (no 2xx, or no schema for the answered type). */
  readonly valid: boolean | undefined;
  readonly error?: string;
}

export interface CreateResult {
  readonly operation: string;
  readonly status: number;
  readonly location: string | undefined;
  /** The status of GET at the Location, else of the list holding the new item; undefined when neither is read. */
  readonly readBack: number | undefined;
}

export interface DataProbe {
  readonly gets: readonly GetResult[];
  readonly creates: readonly CreateResult[];
  readonly unvalidated: readonly Unvalidated[];
  /** Start-up of the mock on this document, ms. */
  readonly startMs: number;
}

function credentials(
  schemes: readonly DocumentScheme[],
  env: Readonly<Record<string, string>>,
): { headers: Record<string, string>; query: URLSearchParams } {
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  const cookies: string[] = [];
  for (const s of schemes) {
    const key = env.GATECHECK_ADMIN_APIKEY ?? '';
    if (s.kind === 'jwt') headers.authorization = `Bearer ${env.GATECHECK_ADMIN_BEARER}`;
    else if (s.kind === 'basic')
      headers.authorization = `Basic ${Buffer.from(`${env.GATECHECK_ADMIN_USERNAME}:${env.GATECHECK_ADMIN_PASSWORD}`).toString('base64')}`;
    else if (s.place.in === 'authorization') {
      const { word, param } = s.place;
      const pair = param === undefined ? key : `${param.replace(/=$/, '')}=${key}`;
      headers.authorization = word === '' ? key : `${word} ${pair}`;
    } else if (s.place.in === 'header') headers[s.place.name] = key;
    else if (s.place.in === 'query') query.set(s.place.name, key);
    else cookies.push(`${s.place.name}=${key}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return { headers, query };
}

/** The schema the document declares for `status` and the answered media type, if any. */
function declaredSchema(op: Operation, status: number, contentType: string | null): Json | undefined {
  const responses = isRecord(op.raw.responses) ? op.raw.responses : {};
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  const media = mediaTypesOf(isRecord(response) ? response.content : undefined);
  return (media.find((m) => m.type === type) ?? media.find((m) => m.type === '*/*'))?.schema;
}

export async function probeData(file: string): Promise<DataProbe> {
  const { doc } = (await readOpenApi(file)) as { doc: Json };
  const carriers = readCarriers(doc);
  const ops = readOperations(doc, undefined, carriers, carriers);
  const templateOf = servedTemplate(doc);
  const dialect = dialectOf(doc);
  const started = performance.now();
  const mock = await startMock({ openapi: file, port: 0 });
  const startMs = performance.now() - started;
  try {
    const standIn = mock.standIn;
    if (standIn === undefined) throw new Error('not a stand-in');
    const env = Object.fromEntries((await standIn.environment(Date.now())).map((v) => [v.name, v.value]));
    const schemes = readDocumentSchemes(doc, mock.config.realm);
    const send = async (op: Operation, path: string, init: RequestInit = {}) => {
      const requirement = requirementsOf(doc, op.raw)?.find((r) => Object.keys(r).length > 0);
      const used = Object.keys(requirement ?? {})
        .map((n) => schemes.get(n))
        .filter((s): s is DocumentScheme => s !== undefined);
      const { headers, query } = credentials(used, env);
      const q = query.toString();
      return fetch(`${mock.url}${path}${q ? `${path.includes('?') ? '&' : '?'}${q}` : ''}`, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
      });
    };
    const addressOf = (op: Operation) =>
      templateOf(op).replace(/\{([^}]+)\}/g, (_w, name: string) => {
        const found = op.filled.find((f) => f.startsWith(`${name} = `));
        return encodeURIComponent(
          found === undefined ? 'gatecheck' : (/^\S+ = (.*) \(/.exec(found)?.[1] ?? 'gatecheck'),
        );
      });

    // Creates, and their Location read back.
    const creates: CreateResult[] = [];
    const createdAt = new Map<string, string>();
    for (const op of ops) {
      if (op.method !== 'post' && !(op.method === 'put' && op.successes[0] === 201)) continue;
      const served = templateOf(op);
      const item = ops.find((o) => splitItem(templateOf(o))?.list === served);
      if (item === undefined) continue;
      const sample = op.body === undefined ? { value: {} } : sampleOf(op.body);
      if (!('value' in sample)) continue;
      const res = await send(op, addressOf(op), {
        method: op.method.toUpperCase(),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sample.value),
      });
      await res.arrayBuffer();
      const location = res.headers.get('location') ?? undefined;
      const getter = ops.find((o) => o.method === 'get' && templateOf(o) === templateOf(item));
      const lister = ops.find((o) => o.method === 'get' && templateOf(o) === served);
      let readBack: number | undefined;
      if (location !== undefined && getter !== undefined) {
        const back = await send(getter, location);
        await back.arrayBuffer();
        readBack = back.status;
        createdAt.set(templateOf(getter), location);
      } else if (lister !== undefined && res.status < 300) {
        // No item GET: the list holds the new key (from Location), else the first string value sent.
        const key =
          location === undefined
            ? Object.values(isRecord(sample.value) ? sample.value : {}).find((v) => typeof v === 'string')
            : decodeURIComponent(
                location
                  .split('/')
                  .filter(Boolean)
                  .pop()
                  ?.replace(/\.\w+$/, '') ?? '',
              );
        const back = await send(lister, addressOf(lister));
        const text = await back.text();
        readBack =
          typeof key === 'string' && text.includes(JSON.stringify(key).slice(1, -1)) ? back.status : 404;
      }
      creates.push({
        operation: `${op.method.toUpperCase()} ${served}`,
        status: res.status,
        location,
        readBack,
      });
    }

    // Every GET, validated.
    const gets: GetResult[] = [];
    for (const op of ops) {
      if (op.method !== 'get') continue;
      const path = op.unfilled.length > 0 ? (createdAt.get(templateOf(op)) ?? addressOf(op)) : addressOf(op);
      const res = await send(op, path);
      const text = await res.text();
      let valid: boolean | undefined;
      let error: string | undefined;
      const schema =
        res.status < 300 ? declaredSchema(op, res.status, res.headers.get('content-type')) : undefined;
      if (schema !== undefined && /json/.test(res.headers.get('content-type') ?? '')) {
        const { validate } = compileSchema(schema, dialect, true);
        if (validate !== undefined) {
          valid = validate(JSON.parse(text)) === true;
          if (!valid)
            error = (validate.errors ?? [])
              .slice(0, 3)
              .map((e) => `${e.instancePath || '/'} ${e.message}`)
              .join('; ');
        }
      }
      gets.push({ path, status: res.status, valid, ...(error ? { error } : {}) });
    }
    return { gets, creates, unvalidated: standIn.unvalidated, startMs };
  } finally {
    await mock.close();
  }
}
