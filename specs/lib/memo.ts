/**
 * A pure function of a string, remembered for its latest distinct arguments (an LRU of `max`). The request
 * path runs the same few parses on every answer of a run — the target's WWW-Authenticate value, the path of
 * a URL — and thousands of fuzz answers carry only a handful of distinct ones.
 */
import { LRUCache } from 'lru-cache';

export function memoized<R>(fn: (key: string) => R, max = 256): (key: string) => R {
  // Boxed: the cache holds no `undefined`, and a parse may return it.
  const cache = new LRUCache<string, { readonly value: R }>({ max });
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit.value;
    const value = fn(key);
    cache.set(key, { value });
    return value;
  };
}

/** The path of an absolute URL (WHATWG URL `pathname`), for the clients and judges that see every request. */
export const pathnameOf: (url: string) => string = memoized((url) => new URL(url).pathname);
