/**
 * An OpenAPI 3.0 document shaped as the ones issue #70 was seen on, in small: NetBox's sites (integer ids,
 * trailing slashes, a `{count, next, previous, results}` page, `name`/`slug` filters and `q`, a slug pattern,
 * a tag color of six hex digits, a boolean `exclusiveMaximum` and `nullable` that Ajv refuses as written),
 * Grafana's folders keyed by a `{uid}` the server names (and found by their search), Forgejo's organisations keyed by `{org}`, the name the
 * create's body carries (`username`), changed by PATCH; a session login with its 401; a text/plain health
 * check and a CSV export; a multipart upload the mock does not check.
 */

const page = (items: object) => ({
  type: 'object',
  required: ['count', 'next', 'previous', 'results'],
  properties: {
    count: { type: 'integer' },
    next: { type: 'string', format: 'uri', nullable: true },
    previous: { type: 'string', format: 'uri', nullable: true },
    results: { type: 'array', items },
  },
});

const json = (schema: object) => ({ 'application/json': { schema } });

export const DATA_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Data stand-in test', version: '1' },
  servers: [{ url: 'https://netbox.example/api' }],
  security: [{ tokenAuth: [] }],
  paths: {
    '/dcim/sites/': {
      get: {
        parameters: [
          { name: 'name', in: 'query', schema: { type: 'string' } },
          { name: 'slug', in: 'query', schema: { type: 'string' } },
          { name: 'q', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'offset', in: 'query', schema: { type: 'integer' } },
        ],
        responses: {
          '200': { description: 'sites', content: json(page({ $ref: '#/components/schemas/Site' })) },
        },
      },
      post: {
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/WritableSite' }) },
        responses: { '201': { description: 'made', content: json({ $ref: '#/components/schemas/Site' }) } },
      },
    },
    '/dcim/sites/{id}/': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        responses: { '200': { description: 'a site', content: json({ $ref: '#/components/schemas/Site' }) } },
      },
      put: {
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/WritableSite' }) },
        responses: {
          '200': { description: 'replaced', content: json({ $ref: '#/components/schemas/Site' }) },
        },
      },
      patch: {
        requestBody: {
          required: true,
          content: json({ type: 'object', properties: { description: { type: 'string' } } }),
        },
        responses: {
          '200': { description: 'patched', content: json({ $ref: '#/components/schemas/Site' }) },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/dcim/sites/export/': {
      get: {
        responses: { '200': { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } },
      },
    },
    '/extras/tags/': {
      get: {
        responses: {
          '200': { description: 'tags', content: json(page({ $ref: '#/components/schemas/Tag' })) },
        },
      },
    },
    '/extras/tags/{id}/': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        responses: { '200': { description: 'a tag', content: json({ $ref: '#/components/schemas/Tag' }) } },
      },
    },
    '/folders': {
      get: {
        responses: {
          '200': {
            description: 'folders',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/Folder' } }),
          },
        },
      },
      post: {
        requestBody: {
          required: true,
          content: json({ type: 'object', required: ['title'], properties: { title: { type: 'string' } } }),
        },
        responses: { '200': { description: 'made', content: json({ $ref: '#/components/schemas/Folder' }) } },
      },
    },
    '/folders/search': {
      get: {
        parameters: [{ name: 'query', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'folders found',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/Folder' } }),
          },
        },
      },
    },
    '/folders/{uid}': {
      parameters: [{ name: 'uid', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        responses: {
          '200': { description: 'a folder', content: json({ $ref: '#/components/schemas/Folder' }) },
        },
      },
    },
    '/orgs': {
      post: {
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['username'],
            properties: { username: { type: 'string' }, full_name: { type: 'string' } },
          }),
        },
        responses: {
          '201': { description: 'made', content: json({ $ref: '#/components/schemas/Organization' }) },
          '422': { description: 'validation error' },
        },
      },
    },
    '/orgs/{org}': {
      parameters: [{ name: 'org', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        responses: {
          '200': { description: 'an org', content: json({ $ref: '#/components/schemas/Organization' }) },
        },
      },
      patch: {
        requestBody: { content: json({ type: 'object', properties: { full_name: { type: 'string' } } }) },
        responses: {
          '200': { description: 'changed', content: json({ $ref: '#/components/schemas/Organization' }) },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/login': {
      post: {
        security: [],
        summary: 'Log in: create a session',
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['user', 'password'],
            properties: { user: { type: 'string' }, password: { type: 'string' } },
          }),
        },
        responses: {
          '200': {
            description: 'session',
            content: json({ type: 'object', required: ['token'], properties: { token: { type: 'string' } } }),
          },
          '401': { description: 'wrong user or password' },
        },
      },
    },
    '/health': {
      get: {
        security: [],
        responses: {
          '200': {
            description: 'up',
            content: { 'text/plain': { schema: { type: 'string', example: 'OK' } } },
          },
        },
      },
    },
    '/uploads': {
      post: {
        requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
        responses: { '204': { description: 'stored' } },
      },
    },
  },
  components: {
    schemas: {
      WritableSite: {
        type: 'object',
        required: ['name', 'slug'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          slug: { type: 'string', pattern: '^[-a-zA-Z0-9_]+$', maxLength: 100 },
          description: { type: 'string', maxLength: 200 },
          // NetBox: a bound written as OpenAPI 3.0 writes it (draft 4's boolean), which Ajv refuses as written.
          latitude: { type: 'number', maximum: 90, exclusiveMaximum: true, minimum: -90, nullable: true },
        },
      },
      Site: {
        type: 'object',
        required: ['id', 'url', 'name', 'slug', 'created'],
        properties: {
          id: { type: 'integer', readOnly: true },
          url: { type: 'string', format: 'uri', readOnly: true },
          name: { type: 'string', minLength: 1 },
          slug: { type: 'string', pattern: '^[-a-zA-Z0-9_]+$' },
          description: { type: 'string' },
          latitude: { type: 'number', maximum: 90, exclusiveMaximum: true, minimum: -90, nullable: true },
          created: { type: 'string', format: 'date-time', readOnly: true, nullable: true },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
        },
      },
      Tag: {
        type: 'object',
        required: ['id', 'name', 'slug', 'color'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string' },
          slug: { type: 'string', pattern: '^[-a-zA-Z0-9_]+$' },
          color: { type: 'string', pattern: '^[0-9a-f]{6}$' },
        },
      },
      Folder: {
        type: 'object',
        required: ['uid', 'title', 'id'],
        properties: {
          id: { type: 'integer' },
          uid: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,40}$' },
          title: { type: 'string' },
        },
      },
      Organization: {
        type: 'object',
        required: ['id', 'name', 'username'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          username: { type: 'string' },
          full_name: { type: 'string' },
        },
      },
    },
    securitySchemes: {
      tokenAuth: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Send `Authorization: Token <key>`.',
      },
    },
  },
} as const;
