/**
 * The pieces the refusal checks judge with: what a resource looks like (specs/lib/resource-fingerprint.ts),
 * whether an item read back is what was sent (specs/lib/stored-value.ts), the bounded property runner
 * (specs/kit/property.ts), and the observer of refusals (specs/observe/refusal-resource.ts). Both branches.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { type CollectionWriter, itemPathOf, markedIds } from '../../specs/kit/collection.ts';
import { refusalOptions } from '../../specs/kit/guarded.ts';
import { firstFinding } from '../../specs/kit/property.ts';
import { fingerprintOf, requestCarried, resourceIn } from '../../specs/lib/resource-fingerprint.ts';
import { storedDifference } from '../../specs/lib/stored-value.ts';
import type { Seen } from '../../specs/observe/judges.ts';
import { exchangeOf } from '../../specs/observe/observer.ts';
import { RefusalWatch, settleRefusals } from '../../specs/observe/refusal-resource.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { refusalNoResource } from '../../specs/rules/refusal.ts';
import { limitedAnswer } from '../../specs/run/limited-answer.ts';
import type { Tally } from '../../specs/run/observation-store.ts';
import type { Exchange } from '../../specs/wire/http.ts';

const ADMIN_BODY = JSON.stringify({
  message: 'You reached the admin resource: a Bearer token with the admin role was accepted.',
  maintenance: false,
});

test('a fingerprint: long values and non-error member names; a refusal carries a resource by a value or every name', () => {
  const admin = fingerprintOf(ADMIN_BODY);
  expect(admin?.values).toEqual([
    'You reached the admin resource: a Bearer token with the admin role was accepted.',
  ]);
  // "message" is an error body's member too: it says nothing; "maintenance" is the resource's.
  expect(admin?.names).toEqual(['maintenance']);
  const problem = JSON.stringify({
    type: 'urn:gatecheck:problem:authentication-required',
    title: 'Authentication required',
    status: 401,
    detail: 'No credentials were sent.',
  });
  expect(resourceIn(problem, admin ?? { values: [], names: [] })).toBeUndefined();
  expect(resourceIn(ADMIN_BODY, admin ?? { values: [], names: [] })).toMatch(
    /^the resource's value "You reached/,
  );
  // Names alone: every one of at least two.
  const user = fingerprintOf('{"id":"1","email":"a@b.c","role":"admin","displayName":"x"}');
  expect(user).toEqual({ values: [], names: ['email', 'role', 'displayName'] });
  expect(resourceIn('{"email":"","role":"","displayName":""}', user ?? { values: [], names: [] })).toMatch(
    /every member name/,
  );
  expect(
    resourceIn('{"email":"x","message":"Unauthorized"}', user ?? { values: [], names: [] }),
  ).toBeUndefined();
  // Nothing recognisable: no fingerprint, so no verdict either way.
  expect(fingerprintOf('{"ok":true}')).toBeUndefined();
  expect(fingerprintOf('')).toBeUndefined();
  // Not JSON: its longer lines; a string value as it appears escaped inside JSON text.
  expect(fingerprintOf('<h1>Welcome to the admin area</h1>\nok')?.values).toEqual([
    '<h1>Welcome to the admin area</h1>',
  ]);
  expect(fingerprintOf(JSON.stringify({ quote: 'say "admin" here' }))?.values).toEqual([
    'say \\"admin\\" here',
  ]);
  // A resource nested deeper than any stack would hold is walked without recursion.
  expect(fingerprintOf(`${'['.repeat(20_000)}"deep enough value"${']'.repeat(20_000)}`)?.values).toEqual([
    'deep enough value',
  ]);
});

test('stored as sent: members compared as JSON.parse reads them; added members are the server’s, lost or changed ones are not', () => {
  const sent = JSON.parse(
    '{"name":"p","n":12345678901234567890,"z":-0.0,"__proto__":{"g":true},"deep":[[{"a":1}]]}',
  ) as Record<string, unknown>;
  const stored = JSON.parse(
    '{"id":"7","name":"p","n":12345678901234567000,"z":0,"__proto__":{"g":true},"deep":[[{"a":1}]]}',
  );
  expect(storedDifference([sent], stored)).toBeUndefined();
  expect(storedDifference([sent], { ...stored, n: 1 })).toMatch(/"n": sent 12345678901234567000, stored 1/);
  // A "__proto__" member dropped (Object.assign) is missing, not the prototype that answers for it.
  const dropped = Object.assign({}, stored) as Record<string, unknown>;
  expect(storedDifference([sent], dropped)).toMatch(/"__proto__": sent .*, not stored/);
  expect(storedDifference([JSON.parse('{"big":1e400}')], JSON.parse('{"big":null}'))).toBe(
    '"big": sent Infinity, stored null',
  );
  expect(storedDifference([sent], { ...stored, deep: [[{ a: 1, b: 2 }]] })).toMatch(/stored a member "b"/);
  // Duplicate names: either reading passes.
  expect(storedDifference([{ d: 'second' }, { d: 'first' }], { d: 'first' })).toBeUndefined();
  expect(storedDifference([{ d: 'second' }, { d: 'first' }], { d: 'third' })).toMatch(/"d": sent "second"/);
  expect(storedDifference([{ a: 1 }], [1])).toMatch(/not an object/);
  // The id is the server's to assign.
  expect(storedDifference([{ id: 'mine', a: 1 }], { id: 'theirs', a: 1 })).toBeUndefined();
});

const fakeExchange = (status: number): Exchange => ({
  request: { method: 'GET', url: 'http://127.0.0.1:1/x', headerLines: [] },
  status,
  headers: {},
  headerLines: [],
  body: '',
  ms: 0,
});

test('the property runner: examples first, the smallest failing value, shrinking capped, a stopped request rethrown', async () => {
  const seen: number[] = [];
  const found = await firstFinding({
    rule: refusalNoResource,
    arbitrary: fc.integer({ min: 0, max: 1000 }),
    examples: [3, 5],
    generated: 20,
    check: async (n) => {
      seen.push(n);
      return n >= 10 ? { ex: fakeExchange(200), expected: '< 10', actual: String(n) } : undefined;
    },
  });
  expect(seen.slice(0, 2)).toEqual([3, 5]);
  expect(found?.value).toBe(10);
  expect(found?.replay).toMatch(/^seed -?\d+, path "[\d:]+"$/);
  // Each failing candidate costs requests: past the cap, fast-check reports the smallest it had.
  let calls = 0;
  const capped = await firstFinding({
    rule: refusalNoResource,
    // Ten values that each shrink: many failing candidates, were they all tried.
    arbitrary: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 10, maxLength: 10 }),
    examples: [],
    generated: 5,
    maxShrinks: 2,
    check: async (values) => {
      calls++;
      return { ex: fakeExchange(200), expected: 'none', actual: values.join(',') };
    },
  });
  expect(capped).toBeDefined();
  expect(calls).toBeLessThanOrEqual(3);
  // Every value passing: no finding.
  expect(
    await firstFinding({
      rule: refusalNoResource,
      arbitrary: fc.nat(),
      examples: [1],
      generated: 5,
      check: async () => undefined,
    }),
  ).toBeUndefined();
  // A request that did not go out is no verdict: its error comes out, no more requests are sent.
  let sent = 0;
  await expect(
    firstFinding({
      rule: refusalNoResource,
      arbitrary: fc.nat(),
      examples: [],
      generated: 10,
      check: async () => {
        sent++;
        throw new Error('no answer');
      },
    }),
  ).rejects.toThrow('no answer');
  expect(sent).toBe(1);
});

const profile: Profile = {
  name: 't',
  endpoints: { admin: { path: '/admin', method: 'GET', schemes: ['bearer'] } },
  identities: {},
};

function seen(over: Partial<Seen>): Seen {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:1/admin',
    authorization: [],
    status: 401,
    headers: { 'content-type': 'application/json' },
    body: '{"detail":"no credentials"}',
    ...over,
  };
}

test('the refusals observer: learns a resource from a permitted GET, judges every 401/403 against it, settles the waiting ones', () => {
  const watch = new RefusalWatch(profile);
  const tally: Tally = { seen: 0, faults: 0 };
  // Before any resource: refusals wait (once per body).
  watch.observe(seen({ body: ADMIN_BODY, authorization: ['Bearer user-token-123456'] }), tally, exchangeOf);
  watch.observe(seen({}), tally, exchangeOf);
  watch.observe(seen({}), tally, exchangeOf);
  expect(tally.pending?.map((p) => p.count)).toEqual([1, 2]);
  expect(tally.seen).toBe(0);
  // Not a resource: a public path, a GET without credentials, a HEAD, a body cut short.
  for (const other of [
    seen({ status: 200, url: 'http://127.0.0.1:1/users', authorization: ['Bearer t'], body: ADMIN_BODY }),
    seen({ status: 200, body: ADMIN_BODY }),
    seen({ status: 200, method: 'HEAD', authorization: ['Bearer t'], body: ADMIN_BODY }),
    seen({ status: 200, authorization: ['Bearer t'], body: ADMIN_BODY, truncated: true }),
  ])
    watch.observe(other, tally, exchangeOf);
  expect(tally.fingerprints).toEqual({});
  // The resource: the waiting refusals are judged, the one that carried it is a fault, credentials redacted.
  watch.observe(
    seen({ status: 200, authorization: ['Bearer admin-token-123456'], body: ADMIN_BODY }),
    tally,
    exchangeOf,
  );
  expect(tally).toMatchObject({ seen: 3, faults: 1, pending: [] });
  expect(tally.first?.evidence.actual).toMatch(/^a body carrying the resource's value .* \(of \/admin\)$/);
  expect(JSON.stringify(tally.first?.evidence)).not.toContain('user-token-123456');
  // Later refusals are judged at once; a HEAD or an empty body is nothing to judge.
  watch.observe(seen({ status: 403 }), tally, exchangeOf);
  watch.observe(seen({ method: 'HEAD', body: '' }), tally, exchangeOf);
  expect(tally).toMatchObject({ seen: 4, faults: 1 });
  // The verdict settles what another worker left waiting against the resources any worker learnt.
  const other: Tally = { seen: 0, faults: 0, pending: [] };
  new RefusalWatch(profile).observe(seen({ status: 403, body: ADMIN_BODY }), other, exchangeOf);
  expect(settleRefusals(other)).toBe(other);
  const settled = settleRefusals({ ...other, fingerprints: tally.fingerprints ?? {} });
  expect(settled).toMatchObject({ seen: 1, faults: 1, pending: [] });
});

test("a created item is found by the profile's id field (collection.idField), not only by `id`", () => {
  const writer = { path: '/v3/api_keys', idField: 'api_key_id' } as unknown as CollectionWriter;
  const created = {
    status: 201,
    body: '{"api_key_id":"k-17","name":"gatecheck m-1"}',
  } as unknown as Exchange;
  expect(itemPathOf(writer, created)).toBe('/v3/api_keys/k-17');
  expect(itemPathOf({ ...writer, idField: 'id' }, created)).toBeUndefined();
  const listing =
    '{"result":[{"api_key_id":"k-17","name":"gatecheck m-1"},{"api_key_id":"k-18","name":"other"}]}';
  expect(markedIds(listing, 'm-1', 'api_key_id')).toEqual(['k-17']);
  expect(markedIds(listing, 'm-1')).toEqual([]);
});

test("a 403 during a declared ban: the limiter's for a request without a valid credential (waited out), the verdict for a refused identity's", () => {
  const ban = { banDeclared: true, banSeconds: 30, limitedRecently: true };
  const forbidden = { status: 403, headers: {} };
  const expected = (who: Parameters<typeof refusalOptions>[0]) => refusalOptions(who)?.expect ?? [];
  // No credentials, or a wrong one: a 403 now is the ban's — judging it would take the ban for the refusal.
  expect(
    limitedAnswer(forbidden, ban, 0, expected({ label: 'no credentials', authorization: undefined }))?.kind,
  ).toBe('banned');
  expect(
    limitedAnswer(forbidden, ban, 0, expected({ label: 'a random key', authorization: 'Apikey gck_x' }))
      ?.kind,
  ).toBe('banned');
  // The user identity on an admin path: its 403 is the answer the check judges.
  expect(
    limitedAnswer(
      forbidden,
      ban,
      0,
      expected({ label: 'the user identity (Bearer)', authorization: 'Bearer x', identity: 'user' }),
    ),
  ).toBe(undefined);
});

test('a value or member name the request itself carries (path, query, method, header values) is no evidence of the resource', () => {
  // A Fastify 404 echoes the route: the path spells the resource's value "protected".
  const resource = fingerprintOf(
    '{"resource":"protected","data":{"greeting":"hello from a protected area"}}',
  );
  expect(resource?.values).toContain('protected');
  const echo = '{"message":"Route OPTIONS:/protected not found"}';
  const request = {
    method: 'OPTIONS',
    url: 'http://127.0.0.1:1/protected?view=greeting-long',
    headerLines: [['X-Probe', 'hello from a protected area']] as const,
  };
  expect(resourceIn(echo, resource ?? { values: [], names: [] }, requestCarried(request))).toBeUndefined();
  // A value the request did not carry still counts, and so does the same echo when the request did not carry it.
  expect(
    resourceIn(
      '{"message":"hello from a protected area"}',
      resource ?? { values: [], names: [] },
      requestCarried({ ...request, headerLines: [] }),
    ),
  ).toMatch(/hello from a protected area/);
  // Percent-encoded in the request, plain in the echo: still carried by the request.
  expect(
    resourceIn(
      echo,
      resource ?? { values: [], names: [] },
      requestCarried({ ...request, url: 'http://127.0.0.1:1/%70rotected' }),
    ),
  ).toBeUndefined();
  // Names too: a query naming both members leaves no name to judge by.
  const user = fingerprintOf('{"email":"a@b.c","displayName":"x"}');
  expect(
    resourceIn(
      '{"email":"","displayName":""}',
      user ?? { values: [], names: [] },
      requestCarried({
        method: 'GET',
        url: 'http://127.0.0.1:1/users?fields=email,displayName',
        headerLines: [],
      }),
    ),
  ).toBeUndefined();
});
