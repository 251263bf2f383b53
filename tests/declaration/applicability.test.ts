/**
 * Applicability from the declaration (issue #66): which rules a profile's declared interface rules out, with the
 * declaration that rules each out; the class it is judged as; its deviations from the seed. Pure functions over
 * the profile's JSON, the same ones the report and `gatecheck verify` use.
 */
import { expect, test } from '@playwright/test';
import { notApplicable } from '../../specs/declaration/applicability.ts';
import { classLabel } from '../../specs/declaration/class-label.ts';
import { declarationOf } from '../../specs/declaration/declaration.ts';
import { deviationsOf } from '../../specs/declaration/deviations.ts';
import { catalogue } from '../../specs/rules/catalogue.ts';
import { bearerReadOnly, mockProfile } from '../helpers/declared-profiles.ts';

test('the seed interface as the mock declares it: every rule applies', () => {
  const d = declarationOf(mockProfile());
  expect([...notApplicable(catalogue, d).keys()]).toEqual([]);
  expect(classLabel(d)).toBe(
    'Bearer (JWT RS256) + Basic + Apikey · public read · writes (admin only) · admin role · limit 20/1 s per identity · blocks clients · a closed route · fault trigger',
  );
  expect(deviationsOf(mockProfile())).toEqual([]);
});

test('a Bearer-only read-only API: the Basic, Apikey, write, blocking and fault rules do not apply, each with the declaration that rules it out', () => {
  const d = declarationOf(bearerReadOnly());
  const out = notApplicable(catalogue, d);
  expect(classLabel(d)).toBe(
    'Bearer (JWT RS256) · public read · read-only · admin role · limit 20/1 s per identity',
  );
  expect(out.get('auth.401.invalid-basic')).toBe('no endpoint takes Basic (schemes declared: bearer)');
  expect(out.get('success.200.post')).toMatch(/^read-only: no writable collection/);
  expect(out.get('server.500.fault')).toBe('no way to provoke a 500 is declared (fault)');
  // What the seed asks of every target stays applicable: 401 for missing credentials, 403 for a lacking role
  // where a role is declared, a rate limit (§8), the Host field.
  for (const id of [
    'auth.401.missing',
    'authz.403.lacking-role',
    'ratelimit.429.exceeded',
    'request.400.host-field',
    'jwt.attack.alg-none',
  ])
    expect(out.has(id), id).toBe(false);
  expect(out.size).toBe(30);
});

test('every identity may write and the admin path takes one scheme: exactly the two rules those rule out', () => {
  const p = mockProfile();
  p.endpoints.collection.writer = 'any';
  p.endpoints.admin.schemes = ['bearer'];
  const out = notApplicable(catalogue, declarationOf(p));
  expect([...out.keys()]).toEqual(['authz.403.lacking-scope', 'authz.403.reauth-other-scheme']);
  expect(out.get('authz.403.lacking-scope')).toBe(
    'every authenticated identity may write (endpoints.collection.writer "any")',
  );
});

test('opaque Bearer tokens (no jwt): the JWT rules do not apply; a symmetric alg rules out only key confusion', () => {
  const opaque = mockProfile();
  delete opaque.jwt;
  const out = notApplicable(catalogue, declarationOf(opaque));
  expect(out.get('jwt.attack.alg-none')).toBe(
    'Bearer tokens are not declared as JWTs (no jwt in the profile)',
  );
  expect(out.has('auth.401.invalid-bearer')).toBe(false);
  expect(classLabel(declarationOf(opaque))).toMatch(/^Bearer \(opaque\) \+ Basic/);

  const hs = mockProfile();
  hs.jwt = { alg: 'HS256', secret: 'x'.repeat(32), issuer: 'i', audience: 'a' };
  expect([...notApplicable(catalogue, declarationOf(hs)).keys()]).toEqual([
    'jwt.alg.key-confusion',
    'jwt.attack.key-confusion',
  ]);
});

test('writes declared in methods without a collection: the write rules apply (and will skip for the missing data)', () => {
  const p = bearerReadOnly();
  p.methods = { '/users': ['GET', 'POST'] };
  const out = notApplicable(catalogue, declarationOf(p));
  expect(out.has('success.200.post')).toBe(false);
  expect(classLabel(declarationOf(p))).toContain('writes (admin only)');
});

test('declared success statuses and PATCH are deviations from the seed, listed in a fixed order', () => {
  const p = mockProfile();
  p.endpoints.collection.declaredStatuses = { post: 201, delete: 204, put: 200 };
  p.endpoints.collection.replaceMethod = 'PATCH';
  expect(deviationsOf(p).map((d) => d.text)).toEqual([
    'an item is replaced by PATCH, not PUT (seed §4: PUT)',
    'POST answers 201 (seed §4 rule 2: 200)',
    'DELETE answers 204 (seed §4 rule 2: 200)',
  ]);
});

test('a redacted profile declares the same interface as the raw one (verify recomputes from it)', async () => {
  const { redactProfile } = await import('../../cli/attest/redact-profile.ts');
  const raw = mockProfile();
  const redacted = redactProfile(raw, {});
  expect(classLabel(declarationOf(redacted))).toBe(classLabel(declarationOf(raw)));
  expect([...declarationOf(redacted).features]).toEqual([...declarationOf(raw).features]);
});
