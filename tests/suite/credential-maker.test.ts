/**
 * One credential maker (specs/profile/credential-maker.ts, issue #36): every Authorization value the suite
 * sends is spelled there, in the target's scheme words and key form; the judges and the fuzz grammar read
 * their scheme tables from it; no file of the suite builds a value by hand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { KNOWN_SCHEMES } from '../../specs/fuzz/abnf.ts';
import { challengeJudge, observerContext, type Seen } from '../../specs/observe/judges.ts';
import {
  CANONICAL_SCHEME_WORDS,
  CredentialMaker,
  SEED_CREDENTIALS,
} from '../../specs/profile/credential-maker.ts';
import type { Profile } from '../../specs/profile/types.ts';

const SPECS = new URL('../../specs/', import.meta.url).pathname;

test('the seed forms: Bearer, Basic of the UTF-8 user-pass, Apikey', () => {
  expect(SEED_CREDENTIALS.bearer('t0k')).toBe('Bearer t0k');
  expect(SEED_CREDENTIALS.basic('alice', 'pä:ss')).toBe(
    `Basic ${Buffer.from('alice:pä:ss', 'utf8').toString('base64')}`,
  );
  expect(SEED_CREDENTIALS.apikey('k1')).toBe('Apikey k1');
  expect(SEED_CREDENTIALS.raw('bearer', '')).toBe('Bearer');
  expect(SEED_CREDENTIALS.raw('bearer', 'a b')).toBe('Bearer a b');
  expect(SEED_CREDENTIALS.under('basic', 'pw', 'bob')).toBe(SEED_CREDENTIALS.basic('bob', 'pw'));
  expect(SEED_CREDENTIALS.under('apikey', 'tok')).toBe('Apikey tok');
});

test("the key's form is the profile's, resolved once, and messages print its word", () => {
  const profile = { apikeyScheme: 'MediaBrowser Token' };
  const maker = CredentialMaker.for(profile);
  expect(CredentialMaker.for(profile)).toBe(maker);
  expect(maker.apikey('a"b')).toBe('MediaBrowser Token="a\\"b"');
  expect(maker.name('apikey')).toBe('MediaBrowser');
  const bare = new CredentialMaker({ apikeyScheme: '' });
  expect(bare.apikey('k1')).toBe('k1');
  expect(bare.word('apikey')).toBeUndefined();
  expect(bare.raw('apikey', 'a b')).toBe('a b');
  expect(bare.name('apikey')).toBe('the key alone');
});

test("the fuzz grammar's known schemes and the challenge judge's names come from the maker", () => {
  expect(KNOWN_SCHEMES).toEqual(CANONICAL_SCHEME_WORDS);
  const profile = {
    apikeyScheme: 'SSWS',
    endpoints: { protected: { path: '/p', schemes: ['apikey'] } },
    identities: {},
  } as unknown as Profile;
  const context = observerContext(profile);
  expect(context.names).toEqual(CredentialMaker.for(profile).words);
  const seen: Seen = {
    method: 'GET',
    url: 'http://127.0.0.1:1/p',
    authorization: [],
    status: 401,
    headers: { 'www-authenticate': 'Apikey realm="x"' },
    body: '',
  };
  expect(challengeJudge.judge(seen, context)).toEqual({
    expected: 'a challenge for SSWS',
    actual: 'WWW-Authenticate: Apikey realm="x"',
  });
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('no file of the suite spells an Authorization value by hand', () => {
  // A template string opening with a scheme word and a space, or a scheme table of its own. (The fuzz
  // arbitraries respell the word and the spaces, as their grammar says; they take the word from the maker.)
  const byHand = /`(Bearer|Basic|Apikey) \$\{|\{\s*bearer: 'Bearer'|\bSCHEME_NAMES?\b/;
  const found = files(SPECS)
    .filter((path) => !path.endsWith('credential-maker.ts'))
    .flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${relative(SPECS, path)}:${i + 1}`, line }))
        .filter(({ line }) => byHand.test(line) && !/^\s*(\*|\/\/)/.test(line)),
    );
  expect(found.map((f) => `${f.where}: ${f.line.trim()}`)).toEqual([]);
});
