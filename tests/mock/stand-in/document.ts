/**
 * A small OpenAPI 3.1 document that states each thing the stand-in reads (mock/standin/): a global
 * requirement an operation overrides, `security: []`, an OR of an AND-set, OAuth 2.0 client credentials with
 * scopes, Basic, keys in Authorization (with the document's own word), a header, a query and a cookie, a
 * collection with an item path, its 201 and 204, a request body schema, examples, a rate limit.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder } from '../../../shared/temp-folder.ts';

export const STAND_IN_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Pets stand-in test', version: '1' },
  servers: [{ url: 'https://api.pets.example/v2' }],
  security: [{ oauth: ['pets:read'] }],
  paths: {
    '/health': {
      get: {
        security: [],
        responses: {
          '200': { description: 'up', content: { 'application/json': { example: { ok: true } } } },
        },
      },
    },
    '/pets': {
      get: {
        responses: {
          '200': {
            description: 'pets',
            content: { 'application/json': { example: [{ id: 1, name: 'Rex' }] } },
          },
        },
      },
      post: {
        security: [{ oauth: ['pets:write'] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
        },
        responses: {
          '201': {
            description: 'made',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' }, example: 1 }],
      get: {
        responses: {
          '200': {
            description: 'a pet',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
      delete: { security: [{ oauth: ['pets:write'] }], responses: { '204': { description: 'gone' } } },
    },
    '/reports': {
      get: {
        // OR of an AND-set: a Basic user together with the header key, or a token with pets:admin.
        security: [{ basic: [], headerKey: [] }, { oauth: ['pets:admin'] }],
        responses: {
          '200': { description: 'report', content: { 'application/json': { example: { total: 3 } } } },
        },
      },
    },
    '/admin/stats': {
      // An administrator's operation by the document's words (path segment, tag) and no scope of its own.
      get: {
        tags: ['admin'],
        responses: {
          '200': { description: 'stats', content: { 'application/json': { example: { pets: 1 } } } },
        },
      },
    },
    '/keys/query': { get: { security: [{ queryKey: [] }], responses: { '200': { description: 'ok' } } } },
    '/keys/cookie': { get: { security: [{ cookieKey: [] }], responses: { '200': { description: 'ok' } } } },
    '/keys/word': { get: { security: [{ tokenKey: [] }], responses: { '200': { description: 'ok' } } } },
  },
  components: {
    schemas: {
      NewPet: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, tag: { type: 'string' } },
        additionalProperties: false,
      },
      Pet: {
        type: 'object',
        properties: { id: { type: 'integer', example: 1 }, name: { type: 'string', example: 'Rex' } },
      },
    },
    securitySchemes: {
      oauth: {
        type: 'oauth2',
        flows: {
          clientCredentials: {
            tokenUrl: 'https://auth.pets.example/token',
            scopes: { 'pets:read': 'read', 'pets:write': 'write', 'pets:admin': 'admin' },
          },
        },
      },
      basic: { type: 'http', scheme: 'basic' },
      headerKey: { type: 'apiKey', in: 'header', name: 'X-Pets-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'pets_session' },
      tokenKey: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Send `Authorization: Token <key>`.',
      },
    },
  },
} as const;

/** The document written to a fresh temporary folder, removed when the worker exits; returns its path. */
export async function writeStandInDocument(document: object = STAND_IN_DOCUMENT): Promise<string> {
  const dir = await tempFolder('gatecheck-stand-in-');
  const file = path.join(dir.path, 'openapi.json');
  await writeFile(file, JSON.stringify(document));
  return file;
}
