/**
 * A YAML reader as lenient as the common ones (cli/init/read-document.ts): Docker Engine's `swagger.yaml`
 * closes a flow mapping at its key's indentation — PyYAML and the `yaml` package read it, js-yaml (which
 * swagger-parser uses) calls it "deficient indentation". The document's own parse error is shown only when
 * every reader refuses.
 */
import { expect, test } from '@playwright/test';
import { initText } from './run-init.ts';

/** The quirk as Docker's swagger.yaml writes it (`ExposedPorts`' example, line 1373 at moby/moby b985e23). */
const QUIRK = `openapi: 3.0.3
info: { title: quirk, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
paths:
  /containers/json:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                example: {
                  "80/tcp": {},
                  "443/tcp": {}
                }
`;

test('YAML js-yaml refuses and PyYAML reads (a flow mapping closed at its key’s indentation) is read, with a line saying so', async () => {
  const w = await initText(QUIRK);
  expect((w.profile.endpoints as Record<string, unknown>).public).toEqual({
    path: '/containers/json',
    method: 'GET',
  });
  expect(w.profile.todo[0]).toContain('document: read with the yaml package');
  expect(w.profile.todo[0]).toContain('deficient indentation');
});

test('YAML every reader refuses: the document’s own parse error, one line', async () => {
  await expect(initText('openapi: 3.0.3\ninfo: { title: broken\npaths: {}\n')).rejects.toThrow(
    /^init: cannot read .*doc\.yaml: /,
  );
});
