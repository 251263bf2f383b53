/**
 * The profile's `endpoints.collection` from the collection picks (writes.ts) and the to-do lines that go with
 * it: what is written (the sample item), who may write (`writer`, from the same admin evidence as the admin
 * pick, picks.ts `adminScore`), which schemes every write takes, the statuses the document declares (seed §4
 * rule 2 requires 200) and where the created item's id is.
 */
import { inputsOf, type Operation } from './operations.ts';
import { adminScore } from './picks.ts';
import { type CollectionPick, collectionCandidates, idFieldOf } from './writes.ts';

type Json = Record<string, unknown>;

const EXAMPLES = 3;
const line = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;

export interface CollectionSection {
  readonly endpoint: Json | undefined;
  readonly sampleItem: Json | undefined;
}

/** `admin` with the document's admin markers, `any` when a credential without scope or role may write. */
export function writerOf(pick: CollectionPick): { writer: 'admin' | 'any'; why: string } {
  const evidence = adminScore(pick.post);
  if (evidence.score >= 2 && (wordsMarkAdmin(pick.post) || openWriteSchemes(pick).length === 0))
    return {
      writer: 'admin',
      why: `${line(pick.post)} is marked as an administrator's (${evidence.reasons.join(', ')}), as an admin pick would be`,
    };
  if (evidence.score >= 2)
    return {
      writer: 'any',
      why: `${line(pick.post)} is marked as an administrator's by its scopes only (${evidence.reasons.join(', ')}), and with ${openWriteSchemes(pick).join(', ')} its writes need no scope or role, so every identity may write and authz.403.lacking-scope skips`,
    };
  if (pick.post.access.least === 0)
    return {
      writer: 'any',
      why: `${line(pick.post)} accepts a credential without any scope or role and carries no admin marker, so every identity may write and authz.403.lacking-scope skips`,
    };
  return { writer: 'admin', why: `writes need ${pick.post.access.needs.join(', ')}` };
}

/** The post's own words (path, tags, description, `x-` markers) mark it an administrator's on every scheme (as the stand-in reads it, mock/standin/identities.ts `markedAdmin`). */
function wordsMarkAdmin(op: Operation): boolean {
  return adminScore({ ...op, access: { ...op.access, needs: [] } }).score > 0;
}

/**
 * Write schemes on which the POST, PUT and DELETE all let in a credential without any scope or role (OpenAPI
 * §4.8.30: Okta's `[{apiToken: []}, {oauth2: [okta.groups.manage]}]` — the key needs nothing): scope evidence
 * of an administrator's write holds on the others only, and the profile's one `writer` cannot say so.
 */
function openWriteSchemes(pick: CollectionPick): readonly string[] {
  const ops = [pick.post, pick.item.delete, ...(pick.item.put ? [pick.item.put] : [])];
  return pick.writeSchemes.filter((s) => ops.every((o) => o.access.open.includes(s)));
}

/**
 * Why the POSTs whose item path takes DELETE are no candidates when they take no Authorization scheme: the
 * reason that decided, never "no POST whose item path takes DELETE" (issue #69).
 */
function unsentList(unsent: readonly Operation[]): string {
  const why = (o: Operation) =>
    o.access.public
      ? 'it states no security requirement'
      : o.access.inexpressible.length > 0
        ? `it takes ${o.access.inexpressible.join(' or ')}`
        : 'it takes no scheme the profile sends';
  const listed = unsent
    .slice(0, EXAMPLES)
    .map((o) => `${line(o)}: ${why(o)}`)
    .join('; ');
  return `${listed}${unsent.length > EXAMPLES ? `; … ${unsent.length - EXAMPLES} more` : ''}`;
}

export function collectionSection(
  ops: readonly Operation[],
  writes: boolean,
  todo: string[],
): CollectionSection {
  const { picks: writable, refused, unsent } = collectionCandidates(ops);
  const refusedText = refused.length
    ? `; never: ${refused
        .slice(0, EXAMPLES)
        .map((r) => `POST ${r.op.address ?? r.op.path} (${r.why})`)
        .join(', ')}${refused.length > EXAMPLES ? `, … ${refused.length - EXAMPLES} more` : ''}`
    : '';
  const collection = writes ? writable[0] : undefined;
  if (collection === undefined) {
    todo.push(
      writes
        ? unsent.length > 0 && refused.length === 0
          ? `/endpoints/collection: no collection the write rules can use: ${unsent.length === 1 ? 'the one POST whose item path takes DELETE takes' : `the ${unsent.length} POSTs whose item path takes DELETE take`} no credential in Authorization, which the write rules send (${unsentList(unsent)})`
          : `/endpoints/collection: no collection whose writes are safe to try (a POST whose item path takes DELETE, so the rules leave nothing behind)${refusedText}${unsent.length > 0 ? `; ${unsent.length === 1 ? 'one more takes' : `${unsent.length} more take`} no credential in Authorization (${unsentList(unsent)})` : ''}`
        : `/endpoints/collection: left out — writes are off unless asked (\`gatecheck init --writes\`), so the write rules skip${writable.length ? `; it would pick POST ${writable[0]?.post.address}` : ''}${refusedText}`,
    );
    return { endpoint: undefined, sampleItem: undefined };
  }
  const sampleItem = collection.sample;
  const { writer, why } = writerOf(collection);
  // Without a PUT, the document's PATCH replaces (a declared deviation from the seed's PUT, issue #66).
  const patchOnly = collection.item.put === undefined && collection.item.patch !== undefined;
  const declared = {
    post: collection.post.successes[0],
    put: collection.item.put?.successes[0],
    ...(patchOnly ? { patch: collection.item.patch?.successes[0] } : {}),
    delete: collection.item.delete.successes[0],
  };
  const declaredStatuses = Object.fromEntries(Object.entries(declared).filter(([, s]) => s !== undefined));
  const idField = idFieldOf(collection);
  const endpoint: Json = {
    path: collection.post.address,
    ...inputsOf(collection.post),
    writeSchemes: [...collection.writeSchemes],
    writer,
    sampleItem,
    // route.404.unknown-id GETs an id the collection does not hold: only where the item path defines GET —
    // without one the API's answer is 405 (RFC 9110 §15.5.6), not a 404 the rule could ask for.
    ...(collection.item.get === undefined ? {} : { missingId: 'gatecheck-no-such-id' }),
    ...(collection.itemPath === undefined ? {} : { itemPath: collection.itemPath }),
    ...(Object.keys(declaredStatuses).length ? { declaredStatuses } : {}),
    ...(patchOnly ? { replaceMethod: 'PATCH' } : {}),
    ...(collection.post.location ? { createLocation: true } : {}),
    ...(idField !== undefined && idField !== 'id' ? { idField } : {}),
    ...(collection.post.maxBodyBytes === undefined ? {} : { maxBodyBytes: collection.post.maxBodyBytes }),
  };
  if (collection.post.inputs.notes.length > 0)
    todo.push(
      `/endpoints/collection: POST ${collection.post.path} requires ${collection.post.inputs.notes.join(', ')}; carried in its query/headers — confirm the values`,
    );
  todo.push(
    `/endpoints/collection: POST ${collection.post.address} — ${collection.reason}${writable[1] ? `; runner-up POST ${writable[1].post.address}` : ''}${refusedText}`,
  );
  if (collection.grantsAccess !== undefined)
    todo.push(
      `/endpoints/collection: ${collection.grantsAccess}; picked only because the document has no other collection the rules can write to and clean up; the sample sets no privilege member: confirm the target's test account may create and delete one`,
    );
  todo.push(
    `/endpoints/collection/sampleItem: ${JSON.stringify(sampleItem)}, made from the required members of the request body schema of ${line(collection.post)}${collection.sampleFromPut && collection.item.put ? ` and of ${line(collection.item.put)}, which sends it back` : ''} (no member that grants privilege or identity; booleans false); check the target accepts it`,
    `/endpoints/collection/writer: ${writer} — ${why}; confirm it`,
  );
  const notEvery = collection.post.access.schemes.filter((s) => !collection.writeSchemes.includes(s));
  if (notEvery.length > 0)
    todo.push(
      `/endpoints/collection/writeSchemes: ${collection.writeSchemes.join(', ')} — POST also accepts ${notEvery.join(', ')}, which its PUT or DELETE does not`,
    );
  if (collection.itemPath !== undefined)
    todo.push(
      `/endpoints/collection/itemPath: ${collection.itemPath}, the document's item path ${collection.item.delete.path} with the created item's id`,
    );
  for (const [method, status] of Object.entries(declared))
    if (status !== undefined && status !== 200)
      todo.push(
        `/endpoints/collection/declaredStatuses/${method}: ${method.toUpperCase()} answers ${status} in this document — a declared deviation from the seed (§4 rule 2: 200): the success rules judge against it and the report lists it; remove it to certify the seed's own interface`,
      );
  if (patchOnly)
    todo.push(
      `/endpoints/collection/replaceMethod: PATCH — the document defines no PUT ${collection.item.delete.path}, only PATCH: a declared deviation from the seed's PUT, listed in the report`,
    );
  else if (collection.item.put === undefined)
    todo.push(
      `/endpoints/collection: the document defines no PUT ${collection.item.delete.path}: \`success.200.put\` will fail against this document`,
    );
  if (collection.item.get === undefined)
    todo.push(
      `/endpoints/collection/missingId: left out — the document defines no GET ${collection.item.delete.path}, so \`route.404.unknown-id\` skips`,
    );
  if (idField === undefined)
    todo.push(
      `/endpoints/collection/idField: the answer to ${line(collection.post)} names no id field the document states; PUT and DELETE need one`,
    );
  else if (idField !== 'id')
    todo.push(
      `/endpoints/collection/idField: ${idField}, the created item's field that the item path ${collection.item.delete.path} takes`,
    );
  return { endpoint, sampleItem };
}
