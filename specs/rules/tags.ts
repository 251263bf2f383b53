/**
 * The tags and annotations that point a test at its rule (the reporter reads nothing else):
 * `test('GET admin path with a non-admin Bearer token → 403', forRule(lackingRole), async ({ kit }) => …)`.
 * A rule's level is its tag `@must`/`@should`/`@info`; its id is `@rule:<id>` and annotation `rule`; each
 * reference is an annotation `ref` (specs/rules/types.ts).
 */
import { ANNOTATION, type Rule } from './types.ts';

export const LEVEL_TAG = { MUST: '@must', SHOULD: '@should', INFO: '@info' } as const;

export function forRule(rule: Rule): {
  tag: string[];
  annotation: { type: string; description: string }[];
} {
  return {
    tag: [LEVEL_TAG[rule.level], `@rule:${rule.id}`],
    annotation: [
      { type: ANNOTATION.rule, description: rule.id },
      ...rule.refs.map((ref) => ({ type: ANNOTATION.ref, description: ref.url })),
    ],
  };
}
