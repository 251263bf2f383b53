/**
 * The rate limiter's keys (docs/mock.md "Rate limits"): a client is `ip:<address>` or `id:<identity>`, and its
 * state in a group is kept under `<group> <client>`. Built afresh on each request, such a key is a new string
 * that every map it is looked up in must hash again; made here, the same client gets the same string each
 * time, whose hash V8 keeps. Each table is bounded: emptied when full, which only costs rebuilding keys.
 */
import { createHash } from 'node:crypto';

const MAX_KEYS = 10_000;

/** `prefix + part`, the same string for the same part: made on first use, kept until the table is full. */
function interned(table: Map<string, string>, prefix: string, part: string): string {
  let key = table.get(part);
  if (key === undefined) {
    if (table.size >= MAX_KEYS) table.clear();
    key = prefix + part;
    table.set(part, key);
  }
  return key;
}

const byAddress = new Map<string, string>();
const byIdentity = new Map<string, string>();

/** `ip:<address>`: a client known by its address (before credentials, on a public route, failed attempts). */
export function addressKey(address: string): string {
  return interned(byAddress, 'ip:', address);
}

/** `id:<identity>`: a client known by its verified identity. */
export function identityKey(id: string): string {
  return interned(byIdentity, 'id:', id);
}

/** One table per route pattern (they are few), keyed by address: a lookup builds no string. */
const byRoute = new Map<string, Map<string, string>>();

/** `ip:<address> <route pattern>`: a client known by its address, on one route (a group keyed by `route`). */
export function routeKey(address: string, pattern: string): string {
  let table = byRoute.get(pattern);
  if (table === undefined) {
    table = new Map();
    byRoute.set(pattern, table);
  }
  let key = table.get(address);
  if (key === undefined) {
    if (table.size >= MAX_KEYS) table.clear();
    key = `${addressKey(address)} ${pattern}`;
    table.set(address, key);
  }
  return key;
}

/** `<group> <client>`: where a limiter keeps one client's state in one group; one table per limiter. */
export function stateKeys(): (groupName: string, client: string) => string {
  const byGroup = new Map<string, { readonly prefix: string; readonly keys: Map<string, string> }>();
  return (groupName, client) => {
    let group = byGroup.get(groupName);
    if (group === undefined) {
      group = { prefix: `${groupName} `, keys: new Map() };
      byGroup.set(groupName, group);
    }
    return interned(group.keys, group.prefix, client);
  };
}

const byCredential = new Map<string, string>();

/**
 * `cred:<digest>`: a client known by its Authorization value (a group keyed by `credential`), whatever the
 * value; `address` (its address key) when it sends none. A digest, so no credential is kept in the limiter's
 * state or shown by the control API's list of bans.
 */
export function credentialKey(authorization: string | undefined, address: string): string {
  if (authorization === undefined || authorization === '') return address;
  let key = byCredential.get(authorization);
  if (key === undefined) {
    if (byCredential.size >= MAX_KEYS) byCredential.clear();
    key = `cred:${createHash('sha256').update(authorization).digest('base64url').slice(0, 22)}`;
    byCredential.set(authorization, key);
  }
  return key;
}
