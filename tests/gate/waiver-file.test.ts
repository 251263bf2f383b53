/** The waiver file's one-line refusals (the CLI exits 2 with them): required fields, dates, unknown rule ids. */

import path from 'node:path';
import { expect, test } from '@playwright/test';
import { schemaValidator } from '../../shared/json-schema.ts';
import { parseWaivers } from '../../specs/report/gate/waiver-file.ts';
import { ROOT } from '../report/synthetic.ts';
import { IDS } from './build-gated.ts';

const parse = (waivers: unknown) => () => parseWaivers(JSON.stringify({ waivers }), 'w.json', IDS);
const ok = { rule: 'success.200.post', reason: 'known', until: '2026-12-31' };

test('a well-formed file parses, object or bare array', () => {
  expect(parse([{ ...ok, endpoint: '/users/*', ticket: 'API-1' }])()).toEqual([
    { ...ok, endpoint: '/users/*', ticket: 'API-1' },
  ]);
  expect(parseWaivers(JSON.stringify([ok]), 'w.json', IDS)).toEqual([ok]);
});

test('reason and until are required; until is a real date', () => {
  expect(parse([{ rule: ok.rule, until: ok.until }])).toThrow(
    'waivers w.json: waivers[0].reason must be a non-empty string (required)',
  );
  expect(parse([{ rule: ok.rule, reason: 'x' }])).toThrow(
    'waivers w.json: waivers[0].until must be a non-empty string (required)',
  );
  expect(parse([{ ...ok, until: '2026-02-30' }])).toThrow(
    'waivers w.json: waivers[0].until must be a date YYYY-MM-DD (the last day it holds), got "2026-02-30"',
  );
  expect(parse([{ ...ok, reason: '  ' }])).toThrow(/waivers\[0\]\.reason must be a non-empty string/);
});

test('a rule id the catalogue does not know is refused with did-you-mean', () => {
  expect(parse([{ ...ok, rule: 'success.200.psot' }])).toThrow(
    'waivers w.json: waivers[0].rule: unknown rule id "success.200.psot"; did you mean success.200.post, success.200.put, success.200.delete? (gatecheck --list-rules shows them)',
  );
});

test('unknown fields and an endpoint that is not a path are refused', () => {
  expect(parse([{ ...ok, expires: '2026-12-31' }])).toThrow(
    'waivers w.json: waivers[0].expires is not a waiver field (rule, endpoint, reason, until, ticket)',
  );
  expect(parse([{ ...ok, endpoint: 'users' }])).toThrow(
    /waivers\[0\]\.endpoint must be a path or pattern starting with "\/"/,
  );
  expect(() => parseWaivers('{"rules": []}', 'w.json', IDS)).toThrow(/must be \{"waivers": \[ … \]\}/);
});

test('fixtures/schemas/waivers.schema.json (for editors) accepts what the reader accepts and refuses what it refuses', () => {
  const validate = schemaValidator(path.join(ROOT, 'fixtures/schemas/waivers.schema.json'));
  const docsExample = {
    $schema: 'node_modules/gatecheck/fixtures/schemas/waivers.schema.json',
    waivers: [{ ...ok, endpoint: '/users/*', ticket: 'API-1234' }],
  };
  expect(validate(docsExample)).toBe(true);
  expect(parseWaivers(JSON.stringify(docsExample), 'w.json', IDS)).toHaveLength(1);
  for (const bad of [
    [{ rule: ok.rule, until: ok.until }],
    [{ rule: ok.rule, reason: 'x' }],
    [{ ...ok, until: 'soon' }],
    [{ ...ok, endpoint: 'users' }],
    [{ ...ok, expires: '2026-12-31' }],
    [{ ...ok, reason: ' ' }],
  ]) {
    expect(validate({ waivers: bad }), JSON.stringify(bad)).toBe(false);
    expect(parse(bad), JSON.stringify(bad)).toThrow();
  }
});
