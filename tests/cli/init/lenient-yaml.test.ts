/**
 * A YAML reader as lenient as the common ones (cli/init/read-document.ts): a mapping that writes a key twice
 * (YAML 1.2 §3.2.1.1 says keys are unique) — PyYAML and the `yaml` package keep the last value, js-yaml (which
 * swagger-parser uses) calls it "duplicated mapping key". Docker Engine's `swagger.yaml` closes a flow mapping
 * at its key's indentation: js-yaml 5 refused that ("deficient indentation"), js-yaml 4 (what swagger-parser
 * 13.0 reads with, issue #71) reads it. The document's own parse error is shown only when every reader refuses.
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

/** A response's `description` written twice: the last one counts, as PyYAML reads it. */
const DUPLICATE_KEY = `openapi: 3.0.3
info: { title: twice, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
paths:
  /containers/json:
    get:
      responses:
        '200':
          description: ok
          description: the containers
`;

test('YAML js-yaml refuses and PyYAML reads (a key written twice) is read, with a line saying so', async () => {
  const w = await initText(DUPLICATE_KEY);
  expect((w.profile.endpoints as Record<string, unknown>).public).toEqual({
    path: '/containers/json',
    method: 'GET',
  });
  expect(w.profile.todo[0]).toContain('document: read with the yaml package');
  expect(w.profile.todo[0]).toContain('duplicated mapping key');
});

test('a flow mapping closed at its key’s indentation (Docker’s quirk) is read, by whichever reader takes it', async () => {
  const w = await initText(QUIRK);
  expect((w.profile.endpoints as Record<string, unknown>).public).toEqual({
    path: '/containers/json',
    method: 'GET',
  });
});

test('YAML every reader refuses: the document’s own parse error, one line', async () => {
  await expect(initText('openapi: 3.0.3\ninfo: { title: broken\npaths: {}\n')).rejects.toThrow(
    /^init: cannot read .*doc\.yaml: /,
  );
});
