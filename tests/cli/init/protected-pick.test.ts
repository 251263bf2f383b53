/**
 * The reason init gives for its protected pick says what is true of the candidates (cli/init/picks.ts): an admin
 * marker ranks first and a quota second, so a pick with a quota is not one where "every candidate has a quota".
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { scratch } from '../cli.ts';

const DOCUMENT = `openapi: 3.0.3
info: { title: pick, version: '1' }
servers: [{ url: 'http://127.0.0.1:9' }]
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
security: [{ bearer: [] }]
paths:
  /stats:
    get:
      description: Counts against your quota.
      responses: { '200': { description: ok } }
  /admin/me:
    get:
      description: Needs the admin role.
      responses: { '200': { description: ok } }
`;

test('a pick with a quota beside an admin-only candidate without one: the reason says why it still won, not that every candidate has a quota', async () => {
  const s = await scratch();
  try {
    await writeFile(path.join(s.dir, 'doc.yaml'), DOCUMENT);
    const result = await s.gatecheck(['init', 'doc.yaml', '--out', 'p.json']);
    expect(result.code, result.stderr).toBe(0);
    const { todo } = JSON.parse(await readFile(path.join(s.dir, 'p.json'), 'utf8')) as { todo: string[] };
    const line = todo.find((t) => t.startsWith('/endpoints/protected:')) ?? '';
    expect(line).toContain('GET /stats');
    expect(line).toContain('a quota of its own (every candidate without one carries an admin marker)');
    expect(line).not.toContain('every candidate has a quota');
  } finally {
    await s.dispose();
  }
});
