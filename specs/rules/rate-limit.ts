/** 429 when a client exceeds the limit (seed §8; RFC 6585 §4; Retry-After RFC 9110 §10.2.3). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const rateLimited: Rule = {
  id: 'ratelimit.429.exceeded',
  level: 'MUST',
  requirement:
    'A client that exceeds the declared limit within the window is answered with 429 (or 403, which the seed also allows).',
  refs: [seed('8'), seed('7', '429'), rfc(6585, '4')],
  statuses: [429, 403],
  needs: ['rateLimit'],
  impact: 'status',
  remedy: 'Count requests per client as declared and answer 429 (or 403) past the limit within the window.',
};

export const retryAfter: Rule = {
  id: 'ratelimit.429.retry-after',
  level: 'MUST',
  requirement: 'A Retry-After field on a 429, when present, is an HTTP-date or a number of seconds.',
  refs: [rfc(6585, '4'), rfc(9110, '10.2.3')],
  statuses: [429],
  needs: ['rateLimit'],
  impact: 'status',
  remedy: 'Send Retry-After as delay-seconds or an HTTP-date.',
};

export const recovery: Rule = {
  id: 'ratelimit.429.recovery',
  level: 'SHOULD',
  requirement: 'After the Retry-After delay (or the window) has passed, the same client is served again.',
  refs: [seed('7', '429'), rfc(6585, '4')],
  statuses: [429, 200],
  needs: ['rateLimit'],
  impact: 'refusal',
  remedy: 'Serve the client again once Retry-After (or the window) has passed.',
};

export const rateLimitRules: readonly Rule[] = [rateLimited, retryAfter, recovery];
