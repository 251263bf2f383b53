/**
 * Each defect mode really changes what the mock does: one small HTTP probe per defect
 * (tests/mutation/expectations/), sent to a conformant mock and to a mock with only that defect on; the
 * answers must be the conformant one and the broken one respectively. Fast: no suite run (the mutation score
 * is tests/mutation/score.test.ts). Also: the declarations are consistent with the rule catalogue, the config
 * schema, docs/defects.md and the CLI.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEFECT_NAMES, DEFECTS, type DefectName } from '../../mock/defects/registry.ts';
import { type RunningMock, type StartOptions, startMock } from '../../mock/server.ts';
import { catalogue } from '../../specs/rules/catalogue.ts';
import { fixture } from '../mock/mock-support.ts';
import { EXPECTATIONS, type FakeClock, UNPROVEN } from './expectations/index.ts';
import { withDefectEnum, withDefectTables } from './harness/defect-docs.ts';

/** A conformant mock and a mock with `defect`, on the same fake clock; both closed after `use`. */
async function pair(
  defect: DefectName,
  options: StartOptions,
  use: (conformant: string, defective: string, clock: FakeClock) => Promise<void>,
): Promise<void> {
  // Mid-window start, so a burst never straddles a window boundary.
  const clock: FakeClock = { now: Math.floor(Date.now() / 60_000) * 60_000 + 1_000 };
  const base: StartOptions = { port: 0, clock: () => clock.now, onError: () => undefined, ...options };
  const mocks: RunningMock[] = [];
  try {
    mocks.push(await startMock(base), await startMock({ ...base, defects: [defect] }));
    await use((mocks[0] as RunningMock).url, (mocks[1] as RunningMock).url, clock);
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

for (const defect of DEFECT_NAMES) {
  test(`defect ${defect} changes what the mock answers`, async () => {
    const { probe, conformant, defective, options = {} } = EXPECTATIONS[defect];
    await pair(defect, options, async (good, bad, clock) => {
      expect(await probe(good, clock), 'the conformant mock').toEqual(conformant);
      // Separate mocks, separate limiters and data: nothing the first probe did counts against the second.
      expect(await probe(bad, clock), `the mock with --defect ${defect}`).toEqual(defective);
    });
  });
}

test('the defect names are stable kebab-case, unique, and the files that list them are generated from the declarations', () => {
  for (const name of DEFECT_NAMES) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  expect(new Set(DEFECT_NAMES).size).toBe(DEFECT_NAMES.length);
  // The fuzz engineer's tests use these three names.
  expect(DEFECT_NAMES).toEqual(
    expect.arrayContaining(['alg-none', 'basic-bad-base64-500', 'scheme-case-sensitive']),
  );
  const schema = readFileSync(fixture('schemas/mock-config.schema.json'), 'utf8');
  const enumOf = (text: string): unknown =>
    (JSON.parse(text) as { properties: { defects: { items: { enum: string[] } } } }).properties.defects.items
      .enum;
  expect(enumOf(schema), 'the config schema lists the declared names: run `npm run docs:defects`').toEqual([
    ...DEFECT_NAMES,
  ]);
  expect(withDefectEnum(schema), 'the config schema is stale: run `npm run docs:defects`').toBe(schema);
  const doc = readFileSync(fixture('../docs/defects.md'), 'utf8');
  expect(withDefectTables(doc), 'docs/defects.md is stale: run `npm run docs:defects`').toBe(doc);
  for (const name of DEFECT_NAMES) expect(doc, `docs/defects.md lacks ${name}`).toContain(`\`${name}\``);
});

test('every rule a defect is expected to fail is in the catalogue, and every catalogue rule is killable or stated unproven', () => {
  const ids = new Set(catalogue.map((r) => r.id));
  expect(Object.keys(EXPECTATIONS).sort(), 'expectations for exactly the declared defects').toEqual(
    [...DEFECT_NAMES].sort(),
  );
  for (const name of DEFECT_NAMES) {
    const { rules, collateral = [] } = EXPECTATIONS[name];
    for (const id of [...rules, ...collateral]) {
      expect(ids.has(id), `${name} names ${id}, which the catalogue does not have`).toBe(true);
    }
    expect(rules.length, `${name} targets no rule`).toBeGreaterThan(0);
  }
  const targeted = new Set(DEFECT_NAMES.flatMap((name) => EXPECTATIONS[name].rules));
  const uncovered = catalogue
    .map((r) => r.id)
    .filter((id) => !targeted.has(id) && UNPROVEN[id] === undefined);
  expect(uncovered, 'rules no defect targets and no reason is given for').toEqual([]);
  for (const id of Object.keys(UNPROVEN)) expect(ids.has(id), `UNPROVEN names ${id}`).toBe(true);
});

test('defects are off by default, and an unknown name is refused with one line', async () => {
  const mock = await startMock({ port: 0 });
  try {
    expect(mock.config.defects).toEqual([]);
  } finally {
    await mock.close();
  }
  await expect(startMock({ port: 0, defects: ['no-such-defect' as DefectName] })).rejects.toThrow(
    /^options\.defects\[0\]: must be one of scheme-case-sensitive, /,
  );
});

test('npm run mock -- --list-defects lists every defect with its bug', async () => {
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', fixture('../mock/cli.ts'), '--list-defects'],
      { timeout: 30_000 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
  for (const defect of DEFECTS) {
    expect(output).toContain(`  ${defect.name}\n`);
    expect(output).toContain(defect.bug);
  }
});
