/**
 * The rule catalogue is sound data, and every rule is checked by at least one conformance test — read
 * from the annotations of the suite's own test list (`playwright test --list`), not by grepping.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { CATALOGUE_VERSION, catalogue, ruleById } from '../../specs/rules/catalogue.ts';
import { SEED_FILE } from '../../specs/rules/refs.ts';
import { IMPACTS } from '../../specs/rules/types.ts';
import { runSuite } from '../helpers/run-suite.ts';

const SEED_ANCHORS_PRESENT = readFileSync(SEED_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('## '))
  .map((line) =>
    line
      .slice(3)
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .replace(/ /g, '-'),
  );

const LEVEL_TAG = { MUST: '@must', SHOULD: '@should', INFO: '@info' } as const;

test('rule ids are unique, stable dotted names', () => {
  const ids = catalogue.map((r) => r.id);
  const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
  expect(duplicates, 'duplicate rule ids').toEqual([]);
  for (const id of ids)
    expect(id, 'ids are lower-case dotted names, never numbers').toMatch(
      /^[a-z][a-z0-9]*(\.[a-z0-9][a-z0-9-]*)+$/,
    );
  expect(CATALOGUE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  expect(ruleById('auth.401.challenge').level).toBe('MUST');
  expect(() => ruleById('no.such.rule')).toThrow(TypeError);
});

test('every rule says what a failure costs and what to change; a known cause names the test of this repository that shows it (issue #66)', () => {
  for (const rule of catalogue) {
    expect(IMPACTS, rule.id).toContain(rule.impact);
    expect(rule.remedy.length, `${rule.id}: remedy`).toBeGreaterThan(20);
    expect(rule.remedy, `${rule.id}: one or two sentences`).not.toContain('\n');
    for (const cause of rule.causes ?? []) {
      // No remedy claims what no test showed: the test exists and names the rule.
      const shownBy = readFileSync(cause.shownBy, 'utf8');
      expect(shownBy, `${rule.id}: ${cause.shownBy}`).toContain(rule.id);
    }
  }
});

test('every rule has a level, a one-line requirement, statuses and references with working-form links', () => {
  for (const rule of catalogue) {
    expect(['MUST', 'SHOULD', 'INFO'], rule.id).toContain(rule.level);
    expect(rule.requirement.length, rule.id).toBeGreaterThan(20);
    expect(rule.requirement, `${rule.id}: one line`).not.toContain('\n');
    expect(rule.statuses.length, `${rule.id}: statuses`).toBeGreaterThan(0);
    for (const s of rule.statuses) expect(s >= 100 && s <= 599, `${rule.id}: status ${s}`).toBe(true);
    expect(rule.refs.length, `${rule.id}: references`).toBeGreaterThan(0);
    for (const ref of rule.refs) {
      if (ref.spec === 'seed') {
        // The link lands on a heading of the copied seed, as a Markdown renderer anchors it.
        const [file, anchor = ''] = ref.url.split('#');
        expect(file, rule.id).toBe(SEED_FILE);
        expect(SEED_ANCHORS_PRESENT, `${rule.id}: ${ref.url}`).toContain(anchor);
        expect(ref.section, rule.id).toMatch(/^§\d+/);
      } else if (ref.spec.startsWith('RFC')) {
        const m = /^RFC (\d{4})$/.exec(ref.spec);
        expect(m, `${rule.id}: ${ref.spec}`).not.toBeNull();
        const section = ref.section.replace(/^§/, '');
        expect(section, rule.id).toMatch(/^\d+(\.\d+)*$/);
        expect(ref.url, rule.id).toBe(`https://www.rfc-editor.org/rfc/rfc${m?.[1]}#section-${section}`);
      } else {
        // Other documents (a CVE, an advisory): any https link a reader can open.
        expect(ref.url, `${rule.id}: ${ref.spec}`).toMatch(/^https:\/\/\S+$/);
      }
    }
  }
});

test('every rule is covered by at least one conformance test, and every test points at one known rule', async () => {
  const run = await runSuite({ args: ['--list'] });
  expect(run.code, run.stderr).toBe(0);
  expect(run.specs.length).toBeGreaterThan(0);
  const covered = new Map<string, number>();
  // The run's set-up (specs/setup/run.setup.ts, the `setup` project) is the run's machinery, not a check.
  for (const spec of run.specs.filter((s) => s.file !== 'setup/run.setup.ts')) {
    const ruleAnnotations = (spec.tests[0]?.annotations ?? []).filter((a) => a.type === 'rule');
    expect(ruleAnnotations.length, `${spec.file}: "${spec.title}" carries one rule annotation`).toBe(1);
    const id = ruleAnnotations[0]?.description ?? '';
    const rule = catalogue.find((r) => r.id === id);
    expect(
      rule,
      `${spec.file}: "${spec.title}" points at ${id}, which is not in the catalogue`,
    ).toBeDefined();
    if (!rule) continue;
    // The JSON report lists tags without their '@'.
    const tags = spec.tags.map((t) => (t.startsWith('@') ? t : `@${t}`));
    expect(tags, `${spec.title}: tags`).toEqual(
      expect.arrayContaining([LEVEL_TAG[rule.level], `@rule:${id}`]),
    );
    const refs = (spec.tests[0]?.annotations ?? []).filter((a) => a.type === 'ref').map((a) => a.description);
    expect(refs, `${spec.title}: one ref annotation per reference`).toEqual(rule.refs.map((r) => r.url));
    covered.set(id, (covered.get(id) ?? 0) + 1);
  }
  const uncovered = catalogue.map((r) => r.id).filter((id) => !covered.has(id));
  expect(uncovered, 'rules without a test').toEqual([]);
});
