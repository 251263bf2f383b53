/**
 * The rate limiter's keys (docs/mock.md "Rate limits"): a client is `ip:<address>` or `id:<identity>`, and its
 * state in a group is kept under `<group> <client>`. Built afresh on each request, such a key is a new string
 * that every map it is looked up in must hash again; made here, the same client gets the same string each
 * time, whose hash V8 keeps. Each table is bounded: emptied when full, which only costs rebuilding keys.
 */

const MAX_KEYS = 10_000;

function interned(table: Map<string, string>, part: string, make: (part: string) => string): string {
  let key = table.get(part);
  if (key === undefined) {
    if (table.size >= MAX_KEYS) table.clear();
    key = make(part);
    table.set(part, key);
  }
  return key;
}

const byAddress = new Map<string, string>();
const byIdentity = new Map<string, string>();
const addressKeyOf = (address: string): string => `ip:${address}`;
const identityKeyOf = (id: string): string => `id:${id}`;

/** `ip:<address>`: a client known by its address (before credentials, on a public route, failed attempts). */
export function addressKey(address: string): string {
  return interned(byAddress, address, addressKeyOf);
}

/** `id:<identity>`: a client known by its verified identity. */
export function identityKey(id: string): string {
  return interned(byIdentity, id, identityKeyOf);
}

/** `<group> <client>`: where a limiter keeps one client's state in one group; one table per limiter. */
export function stateKeys(): (groupName: string, client: string) => string {
  const byGroup = new Map<string, Map<string, string>>();
  return (groupName, client) => {
    let table = byGroup.get(groupName);
    if (table === undefined) {
      table = new Map();
      byGroup.set(groupName, table);
    }
    return interned(table, client, (part) => `${groupName} ${part}`);
  };
}
