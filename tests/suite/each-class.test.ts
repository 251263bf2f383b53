/**
 * No masking (issue #67): judgeEachClass runs every class of a rule's probes to its end, attaches each failing
 * class's own counterexample and throws one violation naming them all; a skip or an error that is not a verdict
 * stops at once, as before. Seen failing with a plain loop that throws at the first class.
 */
import { expect, test } from '@playwright/test';
import { EVIDENCE_ATTACHMENT } from '../../specs/lib/evidence.ts';
import type { Rule } from '../../specs/rules/types.ts';
import { judgeEachClass } from '../../specs/verdict/each-class.ts';
import { fail, RuleViolation } from '../../specs/verdict/verify.ts';

const RULE: Rule = {
  id: 'test.each-class',
  level: 'MUST',
  requirement: 'a rule whose probes span two classes',
  refs: [],
  statuses: [200],
  impact: 'refusal',
  remedy: 'judge every class',
};

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a test asks for from this pattern; it asks for none.
test('two failing classes of three: both counterexamples attached, one violation naming both', async ({}, info) => {
  const ran: string[] = [];
  const thrown = await judgeEachClass([
    {
      label: "the scheme word's letter case",
      run: async () => {
        ran.push('word');
        fail(RULE, undefined, 'status 200', 'status 401 for "bearer"');
      },
    },
    { label: 'runs of spaces', run: async () => void ran.push('spaces') },
    {
      label: "the parameter name's letter case",
      run: async () => {
        ran.push('param');
        fail(RULE, undefined, 'status 200', 'status 401 for "TOKEN="');
      },
    },
  ]).catch((e: unknown) => e);
  expect(ran).toEqual(['word', 'spaces', 'param']);
  expect(thrown).toBeInstanceOf(RuleViolation);
  const message = (thrown as RuleViolation).message;
  expect(message).toContain(
    "2 classes of 3 fail, each with its counterexample:\n— the scheme word's letter case:",
  );
  expect(message).toContain(`— the parameter name's letter case:`);
  expect(message).toContain('status 401 for "TOKEN="');
  const evidence = info.attachments.filter((a) => a.name === EVIDENCE_ATTACHMENT);
  expect(evidence).toHaveLength(2);
  // The test did fail as far as the reporter knows only through the thrown violation; clear the attachments.
  info.attachments.length = 0;
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a test asks for from this pattern; it asks for none.
test('one failing class: its own violation, unchanged; none: nothing thrown; a non-verdict error stops at once', async ({}, info) => {
  const one = await judgeEachClass([
    { label: 'a', run: async () => void fail(RULE, undefined, 'x', 'y') },
    { label: 'b', run: async () => {} },
  ]).catch((e: unknown) => e);
  expect((one as RuleViolation).message).not.toContain('classes of');
  await expect(judgeEachClass([{ label: 'a', run: async () => {} }])).resolves.toBeUndefined();
  let after = false;
  await expect(
    judgeEachClass([
      {
        label: 'a',
        run: async () => {
          throw new TypeError('broken check');
        },
      },
      {
        label: 'b',
        run: async () => {
          after = true;
        },
      },
    ]),
  ).rejects.toThrow('broken check');
  expect(after).toBe(false);
  info.attachments.length = 0;
});
