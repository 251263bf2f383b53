/** 404 for what the target does not have (seed §7; RFC 9110 §15.5.5). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const unknownPath: Rule = {
  id: 'route.404.unknown-path',
  level: 'MUST',
  requirement: 'A request with valid credentials to a path the target does not have is answered with 404.',
  refs: [seed('7', '404'), rfc(9110, '15.5.5')],
  statuses: [404],
  needs: ['endpoints.missing'],
  impact: 'status',
  remedy: 'Answer 404 to a path the target does not have, with valid credentials (not 200, 405 or 5xx).',
};

export const unknownId: Rule = {
  id: 'route.404.unknown-id',
  level: 'MUST',
  requirement: 'A GET with valid credentials of an id the collection does not hold is answered with 404.',
  refs: [seed('7', '404'), rfc(9110, '15.5.5')],
  statuses: [404],
  needs: ['endpoints.collection.missingId'],
  requires: ['writes'],
  impact: 'status',
  remedy: 'Answer 404 to an item id the collection does not hold.',
};

/**
 * Item paths whose id a server may not be able to hold (specs/fuzz/grammar/item-ids.ts) and the path spellings
 * of an item path: an id the collection does not hold is a 404 (seed §7), never a server error (seed §7 500 is
 * for faults; RFC 9110 §15.6.1), and never another item — an id wrapped around or rounded to an item's.
 */
export const itemIdBoundaries: Rule = {
  id: 'route.item-id.boundaries',
  level: 'MUST',
  requirement:
    'A GET with valid credentials of an item path whose id lies at or past 2^31, 2^53, 2^63 or 2^64, is negative, zero-padded, signed, has an exponent or is not a number, or of a path spelling of an existing item (trailing slash, case, percent-encoding…), is never answered 5xx, and a 2xx carries no other item than the one asked for (ids compared as text or as exact integers).',
  refs: [seed('7', '404'), seed('7', '500'), rfc(9110, '15.5.5'), rfc(9110, '15.6.1')],
  statuses: [200, 400, 404],
  needs: ['endpoints.collection', 'endpoints.collection.sampleItem'],
  requires: ['writes'],
  impact: 'leak',
  remedy:
    "Parse item ids as exact text or integers (no float conversion, no lenient prefix parse) and answer 404 or 400 to one outside the store's range, never 5xx or another item.",
};

export const notFoundRules: readonly Rule[] = [unknownPath, unknownId, itemIdBoundaries];
