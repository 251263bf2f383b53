/**
 * Each operation of the document as init weighs it: where it is sent (servers.ts), who may call it
 * (security.ts), the request it takes — path parameters filled from the document's `example`, `examples`,
 * `default` or `enum` (OpenAPI 3.1 §4.8.12 Parameter Object), required parameters it would have to guess —
 * and the success statuses and created item its responses declare (§4.8.16, §4.8.17).
 */
import { isObject, maxBodyBytesOf } from './document-extensions.ts';
import { type Said, saidOf } from './prose.ts';
import { type Access, accessOf, type Carrier, requirementsOf } from './security.ts';
import { type Server, serverOf } from './servers.ts';

type Json = Record<string, unknown>;

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

export interface Operation {
  /** The path as the document writes it (`/{realm}/users`). */
  readonly path: string;
  readonly method: Method;
  /** The path to send, parameters filled and a relative server's prefix kept; undefined when a value is missing. */
  readonly address: string | undefined;
  /** `realm = master (its example)`, one per filled parameter. */
  readonly filled: readonly string[];
  /** Path parameters the document gives no value for. */
  readonly unfilled: readonly string[];
  readonly access: Access;
  readonly server: Server | undefined;
  /** Required query, header and cookie parameters the document gives no value for (or a cookie): not sendable. */
  readonly requiredExtras: readonly string[];
  /** Required query parameters and headers with a value the document gives, carried into the profile. */
  readonly inputs: {
    readonly query: Readonly<Record<string, string>>;
    readonly headers: Readonly<Record<string, string>>;
    /** `query ids = 4iV5 (its example)`, one per input. */
    readonly notes: readonly string[];
  };
  readonly body: Json | undefined;
  readonly bodyRequired: boolean;
  readonly maxBodyBytes: unknown;
  /** Declared 2xx statuses, lowest first (a `2XX` range counts as 200). */
  readonly successes: readonly number[];
  /** The JSON schema of the first declared success answer. */
  readonly answer: Json | undefined;
  /** The first declared success answer declares a Location header (OpenAPI §4.8.17 `headers`). */
  readonly location: boolean;
  /** A `$ref` in it that the document does not resolve. */
  readonly dangling: boolean;
  readonly raw: Json;
  readonly tags: readonly string[];
  readonly text: string;
  /** What its words, its tags' and its path's say about who may call it (prose.ts). */
  readonly said: Said;
}

/** An unresolved `$ref` anywhere below `value` (the dereferenced document may be circular). */
export function hasRef(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (!Array.isArray(value) && typeof (value as Json).$ref === 'string') return true;
  return Object.values(value).some((v) => hasRef(v, seen));
}

/** A value the parameter's document gives: example, examples, schema example/examples/default/enum. */
function documentedValue(parameter: Json): { value: unknown; from: string } | undefined {
  const schema = isObject(parameter.schema) ? parameter.schema : {};
  if (parameter.example !== undefined) return { value: parameter.example, from: 'its example' };
  if (isObject(parameter.examples)) {
    const first = Object.values(parameter.examples).find((e) => isObject(e) && e.value !== undefined) as
      | Json
      | undefined;
    if (first !== undefined) return { value: first.value, from: 'its first example' };
  }
  if (schema.example !== undefined) return { value: schema.example, from: "its schema's example" };
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return { value: schema.examples[0], from: "its schema's first example" };
  if (schema.default !== undefined) return { value: schema.default, from: 'its default' };
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return { value: schema.enum[0], from: `the first of its enum (${schema.enum.map(String).join(', ')})` };
  return undefined;
}

/** The required query parameters and headers of `op` as endpoint fields (the suite sends them every time). */
export function inputsOf(op: Operation): Record<string, unknown> {
  const { query, headers } = op.inputs;
  return {
    ...(Object.keys(query).length ? { query: { ...query } } : {}),
    ...(Object.keys(headers).length ? { headers: { ...headers } } : {}),
  };
}

/** A documented value as the profile sends it: a string, an array's items joined by commas (form style). */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) return value.map(String).join(',');
  return undefined;
}

/**
 * Required query and header parameters (§4.8.12: `required`): filled from the document's value when it gives
 * one, else named. A header named Accept, Content-Type or Authorization is one the Parameter Object "SHALL
 * be ignored" for (§4.8.12.1): Authorization is the checks' own; an Accept with a value is carried, as the
 * document asks for it, and never blocks a pick. A cookie the profile cannot send.
 */
function requiredInputs(parameters: readonly Json[]): {
  requiredExtras: string[];
  inputs: Operation['inputs'];
} {
  const requiredExtras: string[] = [];
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const notes: string[] = [];
  for (const p of parameters) {
    if (p.in === 'path' || p.required !== true) continue;
    const name = String(p.name);
    if (p.in === 'header' && /^(authorization|content-type)$/i.test(name)) continue;
    const found = documentedValue(p);
    const text = found === undefined ? undefined : asText(found.value);
    if (p.in === 'cookie' || (p.in !== 'query' && p.in !== 'header')) {
      requiredExtras.push(`${String(p.in)} ${name} (the profile sends no cookie)`);
      continue;
    }
    if (text === undefined || found === undefined) {
      if (!(p.in === 'header' && /^accept$/i.test(name))) requiredExtras.push(`${String(p.in)} ${name}`);
      continue;
    }
    if (p.in === 'query') query[name] = text;
    else headers[name] = text;
    notes.push(`${String(p.in)} ${name} = ${text} (${found.from})`);
  }
  return { requiredExtras, inputs: { query, headers, notes } };
}

function parametersOf(item: Json, op: Json): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [item.parameters, op.parameters])
    if (Array.isArray(list))
      for (const p of list.filter(isObject)) byKey.set(`${String(p.in)} ${String(p.name)}`, p);
  return [...byKey.values()];
}

function jsonSchemaOf(content: unknown): Json | undefined {
  if (!isObject(content)) return undefined;
  const type = Object.keys(content).find((t) => /^application\/([\w.+-]*\+)?json\b/i.test(t));
  const media = type === undefined ? undefined : content[type];
  return isObject(media) && isObject(media.schema) ? media.schema : undefined;
}

function successesOf(responses: unknown): {
  successes: number[];
  answer: Json | undefined;
  location: boolean;
} {
  if (!isObject(responses)) return { successes: [], answer: undefined, location: false };
  const codes = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  const successes = codes.map((c) => (/XX$/i.test(c) ? 200 : Number(c)));
  const first = codes[0] === undefined ? undefined : responses[codes[0]];
  const headers = isObject(first) && isObject(first.headers) ? Object.keys(first.headers) : [];
  return {
    successes,
    answer: isObject(first) ? jsonSchemaOf(first.content) : undefined,
    location: headers.some((h) => h.toLowerCase() === 'location'),
  };
}

export function readOperations(
  doc: Json,
  documentUrl: string | undefined,
  kept: ReadonlyMap<string, Carrier>,
  all: ReadonlyMap<string, Carrier>,
  documentServer?: Json,
): Operation[] {
  const out: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      // §4.8.1: without `servers`, the default is a Server Object with url `/` (the document's own location).
      // The document's server is the one chosen among its list (servers.ts chooseServer).
      const server = serverOf(
        [
          op.servers,
          item.servers,
          documentServer === undefined ? doc.servers : [documentServer],
          [{ url: '/' }],
        ],
        documentUrl,
        documentServer === undefined ? undefined : String(documentServer.url),
      );
      const parameters = parametersOf(item, op);
      const filled: string[] = [];
      const unfilled: string[] = [];
      let address: string | undefined = path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
        const found = parameter === undefined ? undefined : documentedValue(parameter);
        if (found === undefined || (typeof found.value === 'object' && found.value !== null)) {
          unfilled.push(name);
          return whole;
        }
        filled.push(`${name} = ${String(found.value)} (${found.from})`);
        return encodeURIComponent(String(found.value));
      });
      if (unfilled.length > 0) address = undefined;
      else if (server?.url === undefined && server?.prefix) address = `${server.prefix}${address}`;
      const { requiredExtras, inputs } = requiredInputs(parameters);
      const requestBody = isObject(op.requestBody) ? op.requestBody : undefined;
      const { successes, answer, location } = successesOf(op.responses);
      const tags = Array.isArray(op.tags) ? op.tags.map(String) : [];
      out.push({
        path,
        method,
        address,
        filled,
        unfilled,
        access: accessOf(requirementsOf(doc, op), kept, all),
        server,
        requiredExtras,
        inputs,
        body: requestBody === undefined ? undefined : jsonSchemaOf(requestBody.content),
        bodyRequired: requestBody?.required === true,
        maxBodyBytes: maxBodyBytesOf(op.requestBody),
        successes,
        location,
        answer,
        dangling: hasRef([op.parameters, item.parameters, op.requestBody, op.responses]),
        raw: op,
        tags,
        text: [op.summary, op.description, op.operationId].filter((t) => typeof t === 'string').join(' '),
        said: saidOf(doc, item, op),
      });
    }
  }
  return out;
}
