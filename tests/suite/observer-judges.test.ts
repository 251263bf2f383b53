/**
 * The observers' judges (specs/observe/judges.ts) on single responses, and the store's merge of several
 * workers' tallies (specs/run/observation-store.ts): what counts as a response of each kind, and what is a fault.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  allowJudge,
  bearerErrorJudge,
  challengeJudge,
  echoJudge,
  observerContext,
  problemJudge,
  retryAfterJudge,
  type Seen,
  stackJudge,
} from '../../specs/observe/judges.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { readTallies, writeTallies } from '../../specs/run/observation-store.ts';

const profile: Profile = {
  name: 't',
  endpoints: { protected: { path: '/protected', method: 'GET', schemes: ['bearer', 'basic'] } },
  identities: {},
};
const context = observerContext(profile);

function seen(over: Partial<Seen>): Seen {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/protected',
    authorization: [],
    status: 200,
    headers: {},
    body: '',
    ...over,
  };
}

test('401 challenges: a bare Basic, an unquoted realm, a foreign charset or only unaccepted schemes are faults; the right challenges pass', () => {
  const with401 = (field: string | undefined) =>
    challengeJudge.judge(
      seen({ status: 401, headers: field === undefined ? {} : { 'www-authenticate': field } }),
      context,
    );
  expect(challengeJudge.judge(seen({ status: 403 }), context)).toBeUndefined();
  expect(with401('Bearer realm="x", Basic realm="x", charset="UTF-8"')).toBeNull();
  expect(with401(undefined)).toMatchObject({ actual: 'no WWW-Authenticate' });
  expect(with401('Bearer realm="x", Basic')).toMatchObject({ expected: 'Basic with a realm parameter' });
  expect(with401('Bearer realm=x')).toMatchObject({ expected: 'realm as a quoted-string' });
  expect(with401('Basic realm="x", charset="ISO-8859-1"')).toMatchObject({
    expected: 'Basic charset="UTF-8" or none',
  });
  expect(with401('Digest realm="x"')).toMatchObject({ expected: 'a challenge for Bearer or Basic' });
  expect(with401('Bearer realm="x" error=')).toMatchObject({ actual: /not a list of challenges/ });
});

test('Bearer error codes must match the status; answers without an error code are not of the kind', () => {
  const judge = (status: number, field: string) =>
    bearerErrorJudge.judge(seen({ status, headers: { 'www-authenticate': field } }), context);
  expect(judge(401, 'Bearer realm="x"')).toBeUndefined();
  expect(judge(401, 'Bearer realm="x", error="invalid_token"')).toBeNull();
  expect(judge(400, 'Bearer error="invalid_token"')).toMatchObject({
    actual: 'error="invalid_token" with 400',
  });
});

test('405 Allow: missing, not a token list, or listing the refused method is a fault', () => {
  const judge = (allow: string | undefined) =>
    allowJudge.judge(
      seen({ method: 'DELETE', status: 405, headers: allow === undefined ? {} : { allow } }),
      context,
    );
  expect(judge('GET, HEAD, OPTIONS')).toBeNull();
  expect(judge(undefined)).toMatchObject({ actual: 'no Allow' });
  expect(judge('GET, DELETE')).toMatchObject({ actual: 'Allow: GET, DELETE' });
  expect(judge('GET; HEAD')).toMatchObject({ actual: /not a list of tokens/ });
});

test('429 Retry-After, problem+json status, stack traces and echoed credentials', () => {
  expect(retryAfterJudge.judge(seen({ status: 429 }), context)).toBeUndefined();
  expect(retryAfterJudge.judge(seen({ status: 429, headers: { 'retry-after': '5' } }), context)).toBeNull();
  expect(
    retryAfterJudge.judge(seen({ status: 429, headers: { 'retry-after': '2026-01-01T00:00:00Z' } }), context),
  ).not.toBeNull();
  const problem = (status: number, body: string, truncated = false) =>
    problemJudge.judge(
      seen({ status, headers: { 'content-type': 'application/problem+json' }, body, truncated }),
      context,
    );
  expect(problem(404, '{"status":404}')).toBeNull();
  expect(problem(404, '{"status":"404"}')).toMatchObject({ actual: '"status": "404" on a 404' });
  expect(problem(404, '{"status":40', true)).toBeUndefined();
  // HEAD answers carry no content, whatever Content-Type says (RFC 9110 §9.3.2).
  expect(
    problemJudge.judge(
      seen({ method: 'HEAD', status: 405, headers: { 'content-type': 'application/problem+json' } }),
      context,
    ),
  ).toBeUndefined();
  expect(stackJudge.judge(seen({ body: 'Error: x\n    at f (/app/src/a.ts:1:2)' }), context)).not.toBeNull();
  expect(stackJudge.judge(seen({ body: '{"title":"Not Found"}' }), context)).toBeNull();
  const echo = (body: string) =>
    echoJudge.judge(seen({ authorization: ['Bearer abcdefgh12345678'], status: 401, body }), context);
  expect(echo('{"detail":"invalid token"}')).toBeNull();
  const fault = echo('{"detail":"invalid credentials: Bearer abcdefgh12345678"}');
  expect(fault).toMatchObject({ actual: /the body repeats abcd…\[redacted\]/ });
  expect(JSON.stringify(fault)).not.toContain('abcdefgh12345678');
});

test("the store adds up every worker's tallies and keeps the earliest first fault", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gatecheck-observations-test-'));
  try {
    const evidence = (url: string) => ({
      rule: 'r',
      expected: 'e',
      actual: 'a',
      request: { method: 'GET', url, headers: {} },
      replay: '',
    });
    writeTallies(join(dir, 'a'), {
      r: { seen: 3, faults: 1, first: { at: 20, evidence: evidence('/late') } },
    });
    writeTallies(join(dir, 'b'), {
      r: { seen: 2, faults: 2, first: { at: 10, evidence: evidence('/early') } },
    });
    const merged = { ...readTallies(join(dir, 'a')) };
    const both = readTallies(join(dir, 'b'));
    expect(merged.r?.seen).toBe(3);
    expect(both.r?.faults).toBe(2);
    // One folder, two workers' files (a worker writes <pid>.json: simulate a second by renaming).
    const { rename } = await import('node:fs/promises');
    await rename(join(dir, 'b', `${process.pid}.json`), join(dir, 'a', 'other.json'));
    const all = readTallies(join(dir, 'a'));
    expect(all.r).toMatchObject({
      seen: 5,
      faults: 3,
      first: { at: 10, evidence: { request: { url: '/early' } } },
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
