/**
 * `x-gatecheck-fault` without a path of its own goes to the protected read init picks, with that read's method
 * (cli/init/document-extensions.ts): Outline's reads are POSTs (`POST /auth.info`), and a GET there is a 405,
 * not the fault the header asks for — and would make method.405.allow-complete expect GET in its Allow.
 */
import { expect, test } from '@playwright/test';
import { initText } from './run-init.ts';

const document = (extension: string) => `openapi: 3.0.3
info: { title: reading posts, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes: { bearer: { type: http, scheme: bearer } }
security: [{ bearer: [] }]
${extension}
paths:
  /auth.info:
    post:
      responses: { '200': { description: it, content: { application/json: { schema: { type: object } } } } }
`;

test('a fault without a path of its own takes the protected read’s method; one with a path keeps GET unless it says', async () => {
  const posted = await initText(document("x-gatecheck-fault: { headers: { X-Gatecheck-Fault: '500' } }"));
  expect(posted.profile.fault).toEqual({
    path: '/auth.info',
    method: 'POST',
    headers: { 'X-Gatecheck-Fault': '500' },
  });
  const own = await initText(
    document("x-gatecheck-fault: { path: /health, headers: { X-Gatecheck-Fault: '500' } }"),
  );
  expect((own.profile.fault as { method: string }).method).toBe('GET');
});
