/**
 * Every required input of a pick carried (cli/init/operations.ts `inputs`): a required query parameter or
 * header with a value the document gives (example, default, enum) goes into the endpoint's `query`/`headers`,
 * which the suite sends on every check of that endpoint (specs/kit/kit.ts); one without a value keeps the
 * operation out of the picks, and the to-do says why.
 */
import { expect, test } from '@playwright/test';
import { schemaValidator } from '../../../shared/json-schema.ts';
import { Kit } from '../../../specs/kit/kit.ts';
import type { Profile } from '../../../specs/profile/types.ts';
import { initText } from './run-init.ts';

type Json = Record<string, unknown>;
const SCHEMA = new URL('../../../fixtures/schemas/profile.schema.json', import.meta.url).pathname;

const DOCUMENT = `openapi: 3.0.3
info: { title: inputs, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
security: [{ bearer: [] }]
paths:
  /albums:
    get:
      parameters:
        - { name: ids, in: query, required: true, schema: { type: string }, example: '382ObEPsp2rxGrnsizN5TX' }
        - { name: market, in: query, required: true, schema: { type: string, enum: [ES, US] } }
        - { name: Accept, in: header, required: true, schema: { type: string, default: application/json } }
      responses: { '200': { description: ok } }
  /a:
    get:
      parameters: [{ name: q, in: query, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
`;

test('a pick’s required query parameters and headers with documented values are carried; one without a value is not picked and named', async () => {
  const w = await initText(DOCUMENT);
  const protectedEndpoint = (w.profile.endpoints as Json).protected as Json;
  expect(protectedEndpoint).toEqual({
    path: '/albums',
    method: 'GET',
    schemes: ['bearer'],
    query: { ids: '382ObEPsp2rxGrnsizN5TX', market: 'ES' },
    headers: { Accept: 'application/json' },
  });
  const validate = schemaValidator(SCHEMA);
  expect(validate(w.profile), JSON.stringify(validate.errors)).toBe(true);
  expect(w.profile.todo.join('\n')).toContain(
    '/endpoints/protected: GET /albums requires query ids = 382ObEPsp2rxGrnsizN5TX (its example), query market = ES (the first of its enum (ES, US)), header Accept = application/json (its default)',
  );
  const only = await initText(DOCUMENT.replace(/ {2}\/albums:[\s\S]*?(?= {2}\/a:)/, ''));
  expect((only.profile.endpoints as Json).protected).toBeUndefined();
  expect(only.profile.todo.join('\n')).toContain(
    '1 GET require parameters the document gives no value for (GET /a: query q)',
  );
});

test('the suite sends an endpoint’s query and headers on every request to it, and nothing extra elsewhere', async () => {
  const sent: { path: string; headers: Record<string, string> }[] = [];
  const target = {
    send: async (request: { path: string; headers: Record<string, string> }) => {
      sent.push(request);
      return { status: 200, headers: {}, body: '' };
    },
  };
  const profile = {
    name: 't',
    baseUrl: 'http://127.0.0.1:9',
    endpoints: {
      protected: {
        path: '/albums',
        query: { ids: 'a b', market: 'ES' },
        headers: { Accept: 'application/json' },
      },
    },
    identities: {},
  } as unknown as Profile;
  const kit = new Kit(profile, target as never, undefined);
  await kit.send({ method: 'GET', path: '/albums' }, 'Bearer x');
  await kit.send({ method: 'GET', path: '/albums?market=US' });
  await kit.send({ method: 'GET', path: '/other' });
  await kit.send({ method: 'POST', path: '/albums' });
  expect(sent.map((r) => r.path)).toEqual([
    '/albums?ids=a+b&market=ES',
    '/albums?market=US&ids=a+b',
    '/other',
    '/albums',
  ]);
  expect(sent[0]?.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer x' });
  expect(sent[2]?.headers).toEqual({});
});
