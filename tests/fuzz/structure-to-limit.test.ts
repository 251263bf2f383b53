/**
 * Structures grown to the target's body limit (specs/fuzz/arbitraries/jsonStructureToLimit.ts): each body is
 * valid JSON, fits the limit, and is the largest of its kind that does — never a fixed depth.
 */
import { expect, test } from '@playwright/test';
import {
  DEFAULT_STRUCTURE_BYTES,
  structuresToLimit,
} from '../../specs/fuzz/arbitraries/jsonStructureToLimit.ts';

const sample = { name: 'Gatecheck Probe', email: 'probe@example.test' };

test('each structure fits the limit, fills it to within one unit of its kind, and grows with the limit', () => {
  for (const limit of [4096, 102400, DEFAULT_STRUCTURE_BYTES]) {
    const bodies = structuresToLimit(sample, limit);
    expect(bodies.map((b) => b.kind.replace(/ \(.*/, ''))).toEqual([
      'nested arrays to the limit',
      'nested objects to the limit',
      'long array to the limit',
      'long string to the limit',
      'many members to the limit',
    ]);
    for (const body of bodies) {
      const size = Buffer.byteLength(body.text, 'utf8');
      expect(size, body.kind).toBeLessThanOrEqual(limit);
      // Within one unit of the kind (an object level is 6 bytes, a member at most 9 + its comma).
      expect(limit - size, body.kind).toBeLessThan(16);
      if (!body.kind.startsWith('nested')) expect(() => JSON.parse(body.text), body.kind).not.toThrow();
    }
  }
  const deep = structuresToLimit(sample, 102400)[0];
  expect(deep?.kind).toMatch(/^nested arrays to the limit \(5\d{4} deep\)$/);
});
