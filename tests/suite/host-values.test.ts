/**
 * The Host probes (specs/lib/host-values.ts) against the grammar (RFC 9110 §7.2, RFC 3986 §3.2.2–3), as the
 * mock reads it (mock/http/host.ts): for any authority a target can have, its own Host is valid and every
 * probe value is not — so a 400 is owed to each, and a target is never failed for a Host it may take. And the
 * replay of a request that repeats Host writes both lines, which curl would not.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { isHostValue } from '../../mock/http/host.ts';
import { duplicateHostLines, invalidHostValues } from '../../specs/lib/host-values.ts';
import { curlLine } from '../../specs/lib/replay.ts';

const authority = fc
  .tuple(
    fc.oneof(
      fc.domain(),
      fc.ipV4(),
      fc.ipV6().map((a) => `[${a}]`),
    ),
    fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
  )
  .map(([host, port]) => ({
    own: port === undefined ? host : `${host}:${port}`,
    port: port === undefined ? '' : String(port),
  }));

test("a target's own Host is valid, and every probe value is not (RFC 9112 §3.2)", () => {
  fc.assert(
    fc.property(authority, ({ own, port }) => {
      expect(isHostValue(own), own).toBe(true);
      for (const { label, value } of invalidHostValues(own, port))
        expect(isHostValue(value), `${label}: ${value}`).toBe(false);
      for (const { lines } of duplicateHostLines(own)) expect(lines.length).toBeGreaterThan(1);
    }),
    { numRuns: 500 },
  );
});

test('the grammar read by the mock: the forms RFC 3986 allows, and one position off each', () => {
  for (const valid of [
    'a',
    'a:1',
    'a:',
    '',
    '[::1]',
    '[::1]:8',
    '[v1.x:y]',
    '%41b',
    '127.0.0.1:80',
    "a!$&'()*+,;=b",
  ])
    expect(isHostValue(valid), valid).toBe(true);
  for (const invalid of [
    'a b',
    'u@a',
    'a/',
    'a:1:2',
    'a:x',
    '[::1',
    '[::1]x',
    '[a]',
    '%4',
    'a%zz',
    'a?b',
    'a#b',
  ])
    expect(isHostValue(invalid), invalid).toBe(false);
});

test('a request with two Host lines replays as its octets (curl sends one Host line whatever it is given)', () => {
  const line = curlLine({
    method: 'GET',
    url: 'http://127.0.0.1:1/protected',
    headerLines: [
      ['Host', '127.0.0.1:1'],
      ['Host', 'gatecheck.invalid'],
      ['Authorization', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln'],
    ],
  });
  expect(line).toMatch(
    /^printf '%s\\r\\n' 'GET \/protected HTTP\/1\.1' 'Host: 127\.0\.0\.1:1' 'Host: gatecheck\.invalid' /,
  );
  expect(line).toContain('require("net").connect(1, "127.0.0.1")');
  expect(line).not.toContain('e30.c2ln');
  // One Host line: curl, as before.
  expect(curlLine({ method: 'GET', url: 'http://127.0.0.1:1/x', headerLines: [['Host', 'u@x']] })).toMatch(
    /^curl /,
  );
});
