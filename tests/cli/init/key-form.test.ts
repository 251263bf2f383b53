/**
 * The key's form in Authorization as the document says it in its own words (cli/init/key-form.ts): a prefix,
 * a prepend, a format, a header example, an `x-` field, an example of an operation's Authorization header;
 * a form with a parameter written in `apikeyScheme` and sent as written (specs/profile/apikey-scheme.ts); and
 * where nothing is stated, the to-do quotes the sentence read.
 */
import { expect, test } from '@playwright/test';
import { formFromText, keyFormOf } from '../../../cli/init/key-form.ts';
import { schemaValidator } from '../../../shared/json-schema.ts';
import { apikeyAuthorization, apikeyForm } from '../../../specs/profile/apikey-scheme.ts';
import { initText } from './run-init.ts';

const SCHEMA = new URL('../../../fixtures/schemas/profile.schema.json', import.meta.url).pathname;

test('phrasings seen in published documents → the word, or the word and its parameter', () => {
  expect(formFromText('The API token must be prepended with "token" followed by a space.')).toBe('token');
  expect(formFromText('API key authentication with the required prefix "Token"')).toBe('Token');
  expect(formFromText('Use format Token token=<API_KEY>')).toBe('Token token=');
  expect(formFromText('Header value in the format `Token token="<API_KEY>"`')).toBe('Token token');
  expect(formFromText('Send `Authorization: SSWS {API Token}`.')).toBe('SSWS');
  expect(formFromText('Authorization: MediaBrowser Token="<key>"')).toBe('MediaBrowser Token');
  expect(formFromText('The key, preceded by the word Token and a space.')).toBe('Token');
  expect(formFromText('Put `Token <your token>` in the Authorization header.')).toBe('Token');
  expect(formFromText('The API token, prefixed with SSWS.')).toBe('SSWS');
  expect(formFromText('Bearer Token authentication')).toBe('Bearer');
  expect(formFromText('The API Key with format `Token token=<API_KEY>`')).toBe('Token token=');
  expect(formFromText('Enter a client token with the `Bearer` prefix, e.g. `Bearer Cxxxxxxxxxx`.')).toBe(
    'Bearer',
  );
  expect(
    formFromText(
      "This JWT token must then be used by passing it in via the 'Authorization' header.\n\nThe following format must be in the 'Authorization' header :\n\n    Token xxxxxx.yyyyyyy.zzzzzz\n",
    ),
  ).toBe('Token');
});

test('no word from a key’s own characters, a sentence about a prefix, or a description that states none', () => {
  for (const text of [
    'Keys are prefixed with `sk-` and 48 characters long.',
    'The key prefix is shown once, when the key is created.',
    'A key prefixed with your organisation id.',
    'API key header parameter',
    'Your API key. It must be kept secret.',
    'The token format is documented elsewhere.',
  ])
    expect(formFromText(text), text).toBe(undefined);
});

test('x- fields of the scheme and an example of an operation’s Authorization header say it too', () => {
  expect(keyFormOf({ type: 'apiKey', in: 'header', name: 'Authorization', 'x-prefix': 'Token' })).toEqual({
    form: 'Token',
    from: 'its x-prefix',
  });
  expect(
    keyFormOf({ type: 'apiKey', in: 'header', name: 'Authorization', 'x-example': 'Token 0123456789abcdef' })
      ?.form,
  ).toBe('Token');
  const doc = {
    paths: {
      '/me': {
        get: {
          parameters: [
            {
              in: 'header',
              name: 'Authorization',
              example: 'Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b',
            },
          ],
        },
      },
    },
  };
  expect(keyFormOf({ type: 'apiKey', in: 'header', name: 'Authorization' }, doc)?.form).toBe('Token');
});

test('a parameter form with the key unquoted is written in apikeyScheme and sent as written', () => {
  const validate = schemaValidator(SCHEMA);
  const profile = (apikeyScheme: string) => ({
    name: 'p',
    baseUrl: 'http://127.0.0.1:9',
    endpoints: { protected: { path: '/me' } },
    identities: {},
    apikeyScheme,
  });
  expect(validate(profile('Token token=')), JSON.stringify(validate.errors)).toBe(true);
  expect(apikeyAuthorization(apikeyForm({ apikeyScheme: 'Token token=' }), 'k1')).toBe('Token token=k1');
  expect(apikeyAuthorization(apikeyForm({ apikeyScheme: 'MediaBrowser Token' }), 'k1')).toBe(
    'MediaBrowser Token="k1"',
  );
});

const document = (description: string | undefined) => `openapi: 3.0.3
info: { title: keys, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes:
    key:
      type: apiKey
      in: header
      name: Authorization
${description === undefined ? '' : `      description: ${JSON.stringify(description)}\n`}security: [{ key: [] }]
paths:
  /me:
    get: { responses: { '200': { description: ok } } }
`;

test('init writes the form the document states, and a to-do quoting the sentence read where it states none', async () => {
  for (const [description, form] of [
    ['The API token must be prepended with "token" followed by a space.', 'token'],
    ['API key with the required prefix "Token".', 'Token'],
    ['Use format Token token=<API_KEY>', 'Token token='],
  ] as const) {
    const w = await initText(document(description));
    expect(w.profile.apikeyScheme, description).toBe(form);
    expect(
      w.profile.todo.some((t) => t.startsWith(`/apikeyScheme: "${form}", as security scheme key states it`)),
    ).toBe(true);
  }
  const silent = await initText(document('Your API key. It goes in the Authorization header.'));
  expect(silent.profile.apikeyScheme).toBe('Apikey');
  expect(silent.profile.todo.join('\n')).toContain(
    'its description reads: "It goes in the Authorization header."',
  );
  const bare = await initText(document(undefined));
  expect(bare.profile.todo.join('\n')).toContain('(it has no description)');
});
