/**
 * `gatecheck init` and the rate limit's key (#28): a document's `x-gatecheck-rate-limit` without a key gives
 * a profile without one — the suite learns it — and a to-do line saying so and where the run says what to
 * write; with a key, no such line.
 */
import { expect, test } from '@playwright/test';
import { rateLimitFromDocument } from '../../../cli/init/document-extensions.ts';

test('x-gatecheck-rate-limit without a key: no key written, a to-do line on how it is learned; with one, none', () => {
  const todo: string[] = [];
  const limit = rateLimitFromDocument({ 'x-gatecheck-rate-limit': { limit: 60, windowSeconds: 10 } }, todo);
  expect(limit).toEqual({ limit: 60, windowSeconds: 10, identity: 'ratelimit' });
  expect(todo).toEqual([
    expect.stringMatching(
      /^\/rateLimit\/key: the document names no key; the suite .* learns it .*politeness section/,
    ),
  ]);
  const declared: string[] = [];
  rateLimitFromDocument(
    { 'x-gatecheck-rate-limit': { limit: 60, windowSeconds: 10, key: 'address' } },
    declared,
  );
  expect(declared).toEqual([]);
});

test('several x-gatecheck-rate-limit values (a list): one rateLimit entry each, names, routes and appliesTo kept', () => {
  const todo: string[] = [];
  const limits = rateLimitFromDocument(
    {
      'x-gatecheck-rate-limit': [
        { name: 'anon', limit: 20, windowSeconds: 60, key: 'address', appliesTo: 'anonymous' },
        { name: 'user', limit: 60, windowSeconds: 60, key: 'identity', appliesTo: 'authenticated' },
        { name: 'login', limit: 5, windowSeconds: 60, key: 'address', routes: ['/login'] },
        { limit: 0, windowSeconds: 1 },
      ],
    },
    todo,
  );
  expect(limits).toEqual([
    {
      name: 'anon',
      limit: 20,
      windowSeconds: 60,
      key: 'address',
      appliesTo: 'anonymous',
      identity: 'ratelimit',
    },
    { name: 'user', limit: 60, windowSeconds: 60, key: 'identity', appliesTo: 'authenticated' },
    { name: 'login', limit: 5, windowSeconds: 60, key: 'address', routes: ['/login'] },
  ]);
  // The unusable one is left out, and said so where it stood.
  expect(todo).toEqual([
    expect.stringMatching(/^\/rateLimit\/3: the document's x-gatecheck-rate-limit needs/),
  ]);
});
