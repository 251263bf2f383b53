/**
 * The burst's limited answer (specs/verdict/first-limited.ts): the requests of a wave reach the target in any
 * order, so where a ban's 403 comes before a 429 in send order, the 429 is the target's first refusal and the
 * one the Retry-After rule judges. Seen in a run against the mock with a ban after 3 limited answers: the wave
 * met the limit, the first limited answer in send order was the ban's 403, and the Retry-After rule skipped
 * with "the burst got no 429".
 */
import { expect, test } from '@playwright/test';
import { firstLimited } from '../../specs/verdict/first-limited.ts';
import type { Exchange } from '../../specs/wire/http.ts';

function answer(status: number, retryAfter?: string): Exchange {
  const headerLines: [string, string][] = retryAfter === undefined ? [] : [['retry-after', retryAfter]];
  return {
    request: { method: 'GET', url: 'http://127.0.0.1:1/protected', headerLines: [] },
    status,
    headers: Object.fromEntries(headerLines),
    headerLines,
    body: '',
    ms: 1,
  };
}

test('a wave whose ban 403 precedes its 429s in send order → the 429 is the first limited answer', () => {
  const wave = [answer(200), answer(403), answer(429, '2'), answer(429, '2'), answer(403)];
  expect(firstLimited(wave)).toBe(wave[2]);
});

test('a wave of 403s only (a target that blocks, or a ban already in force) → its first 403', () => {
  const wave = [answer(200), answer(403), answer(403)];
  expect(firstLimited(wave)).toBe(wave[1]);
});

test('a wave with no limited answer → none; other refusals are not limited answers', () => {
  expect(firstLimited([answer(200), answer(401), answer(503)])).toBeUndefined();
  expect(firstLimited([])).toBeUndefined();
});
