/**
 * Which member of an item holds the key its item path addresses it by (`/articles/{slug}` → `slug`,
 * `/admin/users/{username}` → `login` of Gitea's User, `/tags/{tag_gid}` → `gid`): init's reading first
 * (cli/init/writes.ts `idFieldOfAnswer`: the parameter's own name, `id` for an id-like parameter, the member
 * the parameter's name ends with); for a parameter that names no id, the member that names the item — `name`,
 * `username`, `login`, `slug`, `key`, `handle`, `code` — in that order. Undefined when the item states none: the
 * key is then the path's alone.
 */
import { merged } from '../../cli/init/sample-item.ts';
import { idFieldOfAnswer } from '../../cli/init/writes.ts';
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

const plain = (n: string) => n.toLowerCase().replace(/[_-]/g, '');

/** Members that name an item, for a parameter that is not an id (`{org}`, `{username}`, `{name}`). */
const NAMING = ['name', 'username', 'login', 'slug', 'key', 'handle', 'code'];

export function keyMemberOf(entity: Json | undefined, param: string): string | undefined {
  if (entity === undefined) return undefined;
  const schema = merged(entity);
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (properties === undefined) return undefined;
  const init = idFieldOfAnswer({ type: 'object', properties }, `/{${param}}`);
  if (init !== undefined && !init.includes('.')) return init;
  const names = Object.keys(properties);
  // `{org_name}`, `{orgName}` → `name`; `{username}` → `username` or `login`.
  const stem = plain(param).replace(/(name|slug|key)$/, '');
  for (const candidate of [`${stem}name`, ...NAMING])
    for (const n of names) if (plain(n) === candidate && isKeyType(properties[n])) return n;
  return undefined;
}

/** A member that can hold a key: a string or an integer (not an object, a list or a flag). */
function isKeyType(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  const s = merged(schema);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  return type === undefined || type === 'string' || type === 'integer' || type === 'number';
}

/** The member of a request body that carries the key it asks for (`username` of Gitea's CreateUserOption). */
export function requestKeyMemberOf(
  body: Json | undefined,
  param: string,
  entityKey: string | undefined,
): string | undefined {
  if (body === undefined) return undefined;
  const schema = merged(body);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  for (const wanted of [entityKey, param].filter((n): n is string => n !== undefined))
    for (const n of names) if (plain(n) === plain(wanted)) return readOnly(properties[n]) ? undefined : n;
  if (/(id|gid|sid|uuid)$/i.test(param)) return undefined;
  const stem = plain(param).replace(/(name|slug|key)$/, '');
  for (const candidate of [`${stem}name`, ...NAMING])
    for (const n of names) if (plain(n) === candidate && !readOnly(properties[n])) return n;
  return undefined;
}

const readOnly = (schema: unknown) => isRecord(schema) && schema.readOnly === true;

/** Whether the key member is typed as a number (its values are then numbers in the item). */
export function numericKey(entity: Json | undefined, member: string | undefined, param?: Json): boolean {
  const properties = entity === undefined ? undefined : merged(entity).properties;
  const schema =
    member !== undefined && isRecord(properties) && isRecord(properties[member])
      ? merged(properties[member] as Json)
      : param;
  const type = isRecord(schema) ? (Array.isArray(schema.type) ? schema.type[0] : schema.type) : undefined;
  return type === 'integer' || type === 'number';
}
