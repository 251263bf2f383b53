/**
 * `writer` from the same admin evidence as the admin pick (cli/init/collection-section.ts, picks.ts
 * adminScore): a POST under an admin path or tag, or described as open to administrators only, is written by
 * the admin — never `any`, which would switch `authz.403.lacking-scope` off — and the to-do says why.
 */
import { expect, test } from '@playwright/test';
import { initText } from './run-init.ts';

type Json = Record<string, unknown>;

const document = (post: string, path: string) => `openapi: 3.0.3
info: { title: writer, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
security: [{ bearer: [] }]
paths:
  ${path}:
    post:
${post}
      requestBody: { content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { '201': { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  ${path}/{id}:
    delete: { parameters: [{ name: id, in: path, required: true, schema: { type: string } }], responses: { '204': { description: gone } } }
`;

test('an admin path and tag, or "only available to … admin permissions", make the writer the admin, with the reason', async () => {
  for (const [post, path, reason] of [
    ['      tags: [Admin]', '/admin/quota/rules', 'path segment admin'],
    [
      '      description: This endpoint is only available to users with admin permissions.',
      '/labels',
      'its description says',
    ],
  ] as const) {
    const w = await initText(document(post, path), true);
    const collection = (w.profile.endpoints as Json).collection as Json;
    expect(collection.path).toBe(path);
    expect(collection.writer, path).toBe('admin');
    const line = w.profile.todo.find((t) => t.startsWith('/endpoints/collection/writer:')) ?? '';
    expect(line).toContain("is marked as an administrator's");
    expect(line).toContain(reason);
  }
  const plain = await initText(document('      summary: Create a label', '/labels'), true);
  expect(((plain.profile.endpoints as Json).collection as Json).writer).toBe('any');
});

test("scope evidence holds only where it is asked: Okta's groups POST takes an SSWS key needing no scope, so the writer is any", async () => {
  const okta = `openapi: 3.0.3
info: { title: okta-like, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes:
    apiToken: { type: apiKey, in: header, name: Authorization, description: 'Authorization: SSWS {API Token}' }
    oauth2: { type: oauth2, flows: { clientCredentials: { tokenUrl: /token, scopes: { okta.groups.manage: m } } } }
paths:
  /groups:
    post:
      security: [{ apiToken: [] }, { oauth2: [okta.groups.manage] }]
      requestBody: { content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } } }
      responses: { '200': { description: made, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /groups/{id}:
    delete:
      security: [{ apiToken: [] }, { oauth2: [okta.groups.manage] }]
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '204': { description: gone } }
`;
  const w = await initText(okta, true);
  const collection = (w.profile.endpoints as Json).collection as Json;
  expect(collection.writeSchemes).toEqual(['bearer', 'apikey']);
  expect(collection.writer).toBe('any');
  const line = w.profile.todo.find((t) => t.startsWith('/endpoints/collection/writer:')) ?? '';
  expect(line).toContain('by its scopes only (needs okta.groups.manage)');
  expect(line).toContain('with apikey its writes need no scope or role');
  // Scopes alone, asked on every scheme, keep the admin writer.
  const closed = await initText(okta.replaceAll('{ apiToken: [] }, ', ''), true);
  expect(((closed.profile.endpoints as Json).collection as Json).writer).toBe('admin');
});
