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
};

export const unknownId: Rule = {
  id: 'route.404.unknown-id',
  level: 'MUST',
  requirement: 'A GET with valid credentials of an id the collection does not hold is answered with 404.',
  refs: [seed('7', '404'), rfc(9110, '15.5.5')],
  statuses: [404],
  needs: ['endpoints.collection.missingId'],
};

export const notFoundRules: readonly Rule[] = [unknownPath, unknownId];
