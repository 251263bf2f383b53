/**
 * A bounded LRU of verification outcomes, so a credential already checked costs a hash and a map lookup
 * instead of scrypt or a signature check. Bounded by entry count (AuthSettings.cacheSize); keys are SHA-256
 * digests (mock/auth/digest.ts), so an entry is small whatever the credential's size and the cache never
 * holds a credential itself.
 */
import { LRUCache } from 'lru-cache';

export interface VerifiedCache<V extends object> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  readonly size: number;
}

/** `maxEntries` 0 turns caching off (every call verifies); throws TypeError for a negative or fractional bound. */
export function createVerifiedCache<V extends object>(maxEntries: number): VerifiedCache<V> {
  if (!Number.isInteger(maxEntries) || maxEntries < 0) {
    throw new TypeError(`cache size must be a non-negative integer, got ${maxEntries}`);
  }
  if (maxEntries === 0) {
    return { get: () => undefined, set: () => {}, delete: () => {}, size: 0 };
  }
  const lru = new LRUCache<string, V>({ max: maxEntries });
  return {
    get: (key) => lru.get(key),
    set: (key, value) => {
      lru.set(key, value);
    },
    delete: (key) => {
      lru.delete(key);
    },
    get size() {
      return lru.size;
    },
  };
}
