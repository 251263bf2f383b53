/** The first place two JSON values differ: its JSON Pointer and both values (undefined: the member is absent). */
import { isRecord } from '../../shared/is-record.ts';

export interface Difference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export function firstDifference(expected: unknown, actual: unknown, path = ''): Difference | undefined {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return { path, expected, actual };
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length; i++) {
      const found = firstDifference(expected[i], actual[i], `${path}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (isRecord(expected) && isRecord(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const found = firstDifference(expected[key], actual[key], `${path}/${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : { path, expected, actual };
}
