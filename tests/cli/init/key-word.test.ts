/**
 * The word a key is sent with, as an apiKey scheme's description states it (cli/init/security.ts): a word the
 * document names before the key, never the key's own first characters nor a word that only follows "prefix".
 */
import { expect, test } from '@playwright/test';
import { wordFromDescription } from '../../../cli/init/security.ts';

test('a stated word: in an Authorization example, after "prefixed with", a Bearer description', () => {
  expect(wordFromDescription('Send `Authorization: SSWS {API Token}`.')).toBe('SSWS');
  expect(wordFromDescription('Authorization: MediaBrowser Token="<key>"')).toBe('MediaBrowser Token');
  expect(wordFromDescription('The API token, prefixed with SSWS.')).toBe('SSWS');
  expect(wordFromDescription('The key, prefixed with the word "Token".')).toBe('Token');
  expect(wordFromDescription('Bearer Token authentication')).toBe('Bearer');
});

test("no word from the key's own first characters, or from a sentence about a prefix", () => {
  expect(wordFromDescription('Keys are prefixed with `sk-` and 48 characters long.')).toBe(undefined);
  expect(wordFromDescription('Keys are prefixed with sk-proj- for project keys.')).toBe(undefined);
  expect(wordFromDescription('The key prefix is shown once, when the key is created.')).toBe(undefined);
  expect(wordFromDescription('A key prefixed with your organisation id.')).toBe(undefined);
  expect(wordFromDescription(undefined)).toBe(undefined);
});
