/**
 * One list of secret header names (specs/lib/redact.ts), and every writer of headers redacts by it: the
 * header map of a report, the curl replay line. Each header of the list, in any case, keeps its scheme only.
 */

import { expect, test } from '@playwright/test';
import { SECRET_HEADERS } from '../../shared/secrets.ts';
import { redactHeaders } from '../../specs/lib/redact.ts';
import { curlLine } from '../../specs/lib/replay.ts';

const SECRET = 'Bearer eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJlLXZhbHVl';

test('the secret header list covers request and response credentials', () => {
  expect([...SECRET_HEADERS].sort()).toEqual([
    'authorization',
    'cookie',
    'proxy-authorization',
    'set-cookie',
    'x-api-key',
  ]);
});

for (const name of SECRET_HEADERS) {
  const mixed = name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

  test(`${mixed}: redacted in a header map and in the curl replay line`, () => {
    const map = redactHeaders({ [mixed]: SECRET, accept: 'application/json' });
    expect(map[mixed]).not.toContain('c2VjcmV0LXBheWxvYWQ');
    expect(map.accept).toBe('application/json');

    const line = curlLine({ method: 'GET', url: 'http://127.0.0.1:1/x', headerLines: [[mixed, SECRET]] });
    expect(line).toContain(mixed);
    expect(line).not.toContain('c2VjcmV0LXBheWxvYWQ');
  });
}
