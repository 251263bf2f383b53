/**
 * The claims table over the whole corpus (claims-table.ts): `gatecheck init --writes` on every corpus document
 * makes no claim the document does not make, misses none of the facts its claims file writes down, and makes no
 * pick the document shows wrong. On main before issue #39 the table read 3 / 8 / 2 (tests/cli/init/corpus/
 * SOURCES.md); the judge itself is shown failing on profiles that get a fact wrong.
 */
import { expect, test } from '@playwright/test';
import { runInit } from '../../../cli/init/command.ts';
import { claimsTable, judge, markdown } from './claims-table.ts';

test('every corpus document: 0 unfounded claims, 0 missed facts, 0 wrong picks', async () => {
  test.setTimeout(240_000);
  const rows = await claimsTable(runInit);
  expect(rows.length).toBeGreaterThanOrEqual(31);
  const bad = rows.filter((r) => r.unfounded.length + r.missed.length + r.wrong.length > 0);
  expect(bad, markdown(bad)).toEqual([]);
});

test('the judge counts a missed key form, an input not carried, a wrong pick and a collection never to write to', () => {
  const profile = {
    todo: [],
    apikeyScheme: 'Apikey',
    baseUrl: 'https://api.example.test',
    endpoints: { protected: { path: '/users' }, collection: { path: '/users', writer: 'any' } },
  };
  const { missed, wrong } = judge(
    {
      apikeyScheme: 'Token token=',
      baseUrl: ['https://sandbox.example.test'],
      protected: ['/users/me'],
      never: ['/users'],
      inputs: { protected: { query: { ids: '*' } } },
    },
    profile,
  );
  expect(missed).toHaveLength(3);
  expect(wrong).toEqual([
    'protected: /users, not one of /users/me',
    'collection: /users, which the document shows must not be written to',
  ]);
});
