/** Verifiers and evidence: the rule id, allowed answers, actual response and a redacted replay line. */
import { expect, test } from '@playwright/test';
import { shellQuote } from '../../shared/shell.ts';
import { curlLine } from '../../specs/lib/replay.ts';
import { parseRetryAfter } from '../../specs/lib/retry-after.ts';
import { rememberSecrets } from '../../specs/lib/secrets.ts';
import { lackingRole } from '../../specs/rules/forbidden.ts';
import { buildEvidence, expectStatus, RuleViolation } from '../../specs/verdict/verify.ts';
import type { Exchange } from '../../specs/wire/http.ts';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlLXNlY3JldA';

function exchange(status: number, authorization: string, body = '{"title":"ok"}'): Exchange {
  return {
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:1/admin',
      headerLines: [['Authorization', authorization]],
    },
    status,
    headers: { 'content-type': 'application/json' },
    headerLines: [['content-type', 'application/json']],
    body,
    ms: 1,
  };
}

test('expectStatus fails a MUST rule with id, allowed answers, actual response and a redacted curl line', () => {
  let error: unknown;
  try {
    expectStatus(exchange(200, `Bearer ${TOKEN}`), [403, 404], lackingRole, 'for the user identity');
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RuleViolation);
  const message = (error as Error).message;
  expect(message).toContain('[authz.403.lacking-role] MUST:');
  expect(message).toContain('expected: status 403 or 404 for the user identity');
  expect(message).toContain('actual:   status 200');
  expect(message).toContain('response: 200 (content-type: application/json) {"title":"ok"}');
  expect(message).toContain(
    "replay:   curl -i -sS -X GET 'http://127.0.0.1:1/admin' -H 'Authorization: Bearer eyJh…[redacted]'",
  );
  expect(message).not.toContain(TOKEN);
  expect(expectStatus(exchange(403, `Bearer ${TOKEN}`), [403, 404], lackingRole)).toBe(true);
});

test('evidence redacts the credential wherever it shows up, Basic passwords included', () => {
  const password = 'wonder:land-päss';
  const basic = `Basic ${Buffer.from(`alice:${password}`).toString('base64')}`;
  const echoed = exchange(200, basic, `{"you sent":"${password}"}`);
  const evidence = buildEvidence(lackingRole, echoed, 'status 403', 'status 200');
  const text = JSON.stringify(evidence);
  expect(text).not.toContain(password);
  expect(text).not.toContain(Buffer.from(`alice:${password}`).toString('base64'));
  expect(evidence.request.headers.authorization).toMatch(/^Basic .{0,4}…\[redacted\]$/);
  rememberSecrets(['profile-secret-value']);
  const leaked = buildEvidence(
    lackingRole,
    exchange(500, 'Apikey x', 'key=profile-secret-value'),
    'status 403',
    'status 500',
  );
  expect(leaked.response?.body).toBe('key=prof…[redacted]');
});

test('curl lines quote for the shell and keep repeated fields', () => {
  expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  const line = curlLine({
    method: 'POST',
    url: 'http://h/x',
    headerLines: [
      ['Authorization', 'Bearer abcdef'],
      ['Authorization', 'Basic Zm9vOmJhcg=='],
      ['X-Empty', ''],
    ],
    body: '{"a":"b\'c"}',
  });
  expect(line).toBe(
    `curl -i -sS -X POST 'http://h/x' -H 'Authorization: Bearer abcd…[redacted]' -H 'Authorization: Basic Zm9v…[redacted]' -H 'X-Empty;' --data-raw '{"a":"b'\\''c"}'`,
  );
});

test('Retry-After: delay-seconds and the three HTTP-date forms; anything else is invalid', () => {
  const now = Date.parse('Sun, 06 Nov 1994 08:49:00 GMT');
  expect(parseRetryAfter('120', now)).toBe(120);
  expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(37);
  expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(37);
  expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', now)).toBe(37);
  for (const bad of ['-1', '1.5', 'soon', '2024-01-01T00:00:00Z', ''])
    expect(parseRetryAfter(bad, now), bad).toBeUndefined();
});
