/**
 * The writable collection of a profile, as the checks that write to it and read it back need it
 * (specs/conformance/refused-writes.spec.ts, json-values.spec.ts): the writer's credential, items marked so
 * that they can be found again among what parallel checks write, and reads with valid credentials.
 */
import type { Scheme } from '../profile/types.ts';
import type { Exchange } from '../wire/http.ts';
import { type IdentityName, itemId, itemPathFor, type Kit, lacks, need } from './kit.ts';

export interface CollectionWriter {
  /** The collection's path, without a trailing slash. */
  readonly path: string;
  readonly item: Readonly<Record<string, unknown>>;
  readonly schemes: readonly Scheme[];
  readonly identity: IdentityName;
  readonly authorization: string;
  /** The member of a created item that holds its id (profile `collection.idField`, default `id`). */
  readonly idField: string;
  /** One item's path (profile `collection.itemPath`, default `<path>/{id}`). */
  readonly itemPath: string;
}

export { itemPathFor } from './kit.ts';

/** The collection and the writer's first credential in a write scheme, or a skip naming what is missing. */
export async function collectionWriter(kit: Kit): Promise<CollectionWriter> {
  const c = need(kit.profile.endpoints.collection, 'endpoints.collection', 'no writable collection');
  const item = need(c.sampleItem, 'endpoints.collection.sampleItem', 'no item the target accepts');
  const schemes = need(
    c.writeSchemes?.length ? c.writeSchemes : undefined,
    'endpoints.collection.writeSchemes',
    'no scheme accepted for writes',
  );
  const identities = kit.writers();
  const idField = c.idField ?? 'id';
  for (const identity of identities) {
    for (const scheme of schemes) {
      const authorization = await kit.authorization(identity, scheme);
      if (authorization)
        return {
          // A collection whose item path is its own keeps its path as written (`/tags/`: POST there).
          path: c.itemPath === undefined ? c.path.replace(/\/+$/, '') : c.path,
          item,
          schemes,
          identity,
          authorization,
          idField,
          itemPath: c.itemPath ?? `${c.path.replace(/\/+$/, '')}/{id}`,
        };
    }
  }
  return lacks(
    `identities.${identities.join(' / ')}`,
    'no credential in a scheme the collection accepts for writes',
  );
}

/**
 * The sample item carrying `marker` at the end of its first string member (or in a member of its own when it
 * has none): a target that validates the item still takes it, and the marker finds it in any listing.
 */
export function markedItem(item: Readonly<Record<string, unknown>>, marker: string): Record<string, unknown> {
  const name = Object.keys(item).find((key) => typeof item[key] === 'string');
  if (name !== undefined) return { ...item, [name]: `${item[name] as string} ${marker}` };
  // An item inside a wrapper (`{"data": {"name": …}}`): marked inside it, where the target reads the item.
  const wrappers = Object.keys(item).filter((key) => {
    const v = item[key];
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
  const inner = wrappers.length === 1 ? (item[wrappers[0] as string] as Record<string, unknown>) : undefined;
  if (inner !== undefined && Object.values(inner).some((v) => typeof v === 'string'))
    return { ...item, [wrappers[0] as string]: markedItem(inner, marker) };
  return { ...item, gatecheckMarker: marker };
}

/** Whether a JSON body shows an item marked `marker` (markedItem puts it at the end of a string). */
export function showsMarker(body: string, marker: string): boolean {
  return body.includes(`${marker}"`);
}

/**
 * The ids of the items of a listing (a JSON array, or an object holding one) whose JSON text shows `marker`:
 * items a refused write created after all, to remove again.
 */
export function markedIds(body: string, marker: string, idField = 'id'): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const lists = Array.isArray(parsed)
    ? [parsed]
    : Object.values(parsed !== null && typeof parsed === 'object' ? parsed : {}).filter(Array.isArray);
  const out: string[] = [];
  for (const list of lists)
    for (const item of list as unknown[]) {
      // A listing holds the items themselves: a wrapper's field (`data.id`) is read by its last name.
      const id = (item as Record<string, unknown> | null)?.[idField.split('.').pop() ?? idField];
      if ((typeof id === 'string' || typeof id === 'number') && JSON.stringify(item).includes(marker))
        out.push(String(id));
    }
  return out;
}

/** The item path of the item a 2xx write answered with, or undefined (no `id` in its body). */
export function itemPathOf(writer: CollectionWriter, ex: Exchange): string | undefined {
  if (ex.status < 200 || ex.status > 299) return undefined;
  const id = itemId(ex, writer.idField);
  return id === undefined ? undefined : itemPathFor(writer, id);
}

/** GET with the writer's credential (valid credentials, whether or not the read is public). */
export function readWithWriter(kit: Kit, writer: CollectionWriter, path: string): Promise<Exchange> {
  return kit.send({ method: 'GET', path }, writer.authorization);
}

/** DELETE with the writer's credential; a check leaves no litter, and litter is not a verdict. */
export async function removeWithWriter(kit: Kit, writer: CollectionWriter, path: string): Promise<void> {
  try {
    await kit.send({ method: 'DELETE', path }, writer.authorization);
  } catch {
    // No answer, or the budget is spent: the item stays; the run goes on.
  }
}
