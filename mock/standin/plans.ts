/**
 * What the mock does for each operation of the document, read once at start-up from init's reading of it
 * (cli/init/operations.ts `readOperations`: successes, request body schema, parameter examples):
 * - its success answer as the document declares it — the first 2xx (201, 204… a stand-in for *their* API
 *   answers like their API), with the example body its content gives (examples.ts), none for 204 or no content;
 * - its request body's JSON schema, checked with Ajv (shared/json-schema.ts `documentSchemaValidator`);
 * - whether it is an item (`…/{id}`) or makes items in a collection (a POST whose path has an item path below).
 */
import type { Operation } from '../../cli/init/operations.ts';
import { merged } from '../../cli/init/sample-item.ts';
import { idFieldOfAnswer } from '../../cli/init/writes.ts';
import { isRecord } from '../../shared/is-record.ts';
import { documentSchemaValidator, type ValidateFunction } from '../../shared/json-schema.ts';
import { exampleOfMedia, jsonMedia } from './examples.ts';

type Json = Record<string, unknown>;

export interface OperationPlan {
  readonly method: string;
  /** The served template (its server's path prefix + the document's path). */
  readonly template: string;
  /** The last segment is a whole path parameter (`/pets/{petId}`). */
  readonly item: boolean;
  /** POST on a path with an item path below it: makes an item there. */
  readonly creates: boolean;
  readonly status: number;
  /** The example answer, undefined when the success declares no content (or is 204). */
  readonly body: unknown;
  /**
   * The request body's validator, compiled on first use (a document of a thousand operations starts without
   * compiling a thousand schemas); undefined when it declares none in JSON, or Ajv cannot compile it.
   */
  validator(): ValidateFunction | undefined;
  /** The document declares a request body in a JSON media type. */
  readonly takesJson: boolean;
  readonly bodyRequired: boolean;
  /** The field of a created item that holds its id (`a.b`: member b of member a), and whether the document types it as a number. */
  readonly idField: string;
  readonly numericId: boolean;
}

const ITEM = /\/\{[^}/]+\}$/;

function success(op: Operation): { status: number; media: Json | undefined } {
  const responses = isRecord(op.raw.responses) ? op.raw.responses : {};
  const code = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort()[0];
  const status = code === undefined || /XX$/i.test(code) ? 200 : Number(code);
  const response = code === undefined ? responses.default : responses[code];
  return { status, media: isRecord(response) ? jsonMedia(response.content) : undefined };
}

/**
 * The created item's id field as init reads it (cli/init/writes.ts `idFieldOfAnswer`: `id`, the item path's
 * parameter, through `allOf` and a wrapper — PagerDuty's `business_service.id`), `id` when it reads none; and
 * whether the document types it as a number.
 */
function idFieldOf(
  answer: Json | undefined,
  itemPath: string | undefined,
): { idField: string; numericId: boolean } {
  const idField = (itemPath === undefined ? undefined : idFieldOfAnswer(answer, itemPath)) ?? 'id';
  let schema: unknown = answer === undefined ? undefined : merged(answer);
  for (const member of idField.split('.')) {
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
    schema = isRecord(properties[member]) ? merged(properties[member] as Json) : undefined;
  }
  const type = isRecord(schema) ? schema.type : undefined;
  return { idField, numericId: type === 'integer' || type === 'number' };
}

export function planOperations(
  operations: readonly Operation[],
  prefixOf: (op: Operation) => string,
): Map<Operation, OperationPlan> {
  // Each collection path's item path (`/pets` → `/pets/{petId}`), found once: a thousand operations start fast.
  const itemOf = new Map<string, string>();
  for (const { path } of operations)
    if (ITEM.test(path) && !itemOf.has(path.replace(ITEM, ''))) itemOf.set(path.replace(ITEM, ''), path);
  const out = new Map<Operation, OperationPlan>();
  for (const op of operations) {
    const { status, media } = success(op);
    const itemPath = itemOf.get(op.path.replace(/\/$/, ''));
    // An item's own operations (a PUT keeps the id) read the id field with their item path too.
    const idPath = ITEM.test(op.path) ? op.path : itemPath;
    const requestBody = isRecord(op.raw.requestBody) ? op.raw.requestBody : undefined;
    const json = requestBody === undefined ? undefined : jsonMedia(requestBody.content);
    const schema = json !== undefined && isRecord(json.schema) ? json.schema : undefined;
    out.set(op, {
      method: op.method.toUpperCase(),
      template: `${prefixOf(op)}${op.path}`,
      item: ITEM.test(op.path),
      creates: op.method === 'post' && itemPath !== undefined,
      status,
      // A read whose answer the document leaves undescribed still answers a JSON document: an empty object.
      body: status === 204 ? undefined : (exampleOfMedia(media) ?? (op.method === 'get' ? {} : undefined)),
      validator: lazyValidator(schema),
      takesJson: json !== undefined,
      bodyRequired: requestBody?.required === true,
      ...idFieldOf(op.answer, idPath),
    });
  }
  return out;
}

function lazyValidator(schema: Json | undefined): () => ValidateFunction | undefined {
  let made: { validate: ValidateFunction | undefined } | undefined;
  return () => {
    if (made === undefined)
      made = { validate: schema === undefined ? undefined : documentSchemaValidator(schema) };
    return made.validate;
  };
}
