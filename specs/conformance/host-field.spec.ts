/**
 * The Host field (RFC 9112 §3.2): 400 for two Host lines and for a Host value outside its grammar, on the
 * protected path, without credentials: whatever the target would answer the request otherwise, its framing
 * decides first. The lines and values come from specs/lib/host-values.ts.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { need } from '../kit/kit.ts';
import { duplicateHostLines, invalidHostValues } from '../lib/host-values.ts';
import { hostField } from '../rules/host-field.ts';
import { expectStatus } from '../verdict/verify.ts';

test('GET protected path with two Host lines → 400', forRule(hostField), async ({ kit }) => {
  const endpoint = need(kit.endpoint('protected'), 'endpoints.protected', 'no protected path');
  const own = new URL(kit.target.baseUrl).host;
  for (const { label, lines } of duplicateHostLines(own)) {
    const ex = await kit.target.sendLines(
      { method: endpoint.method ?? 'GET', path: endpoint.path },
      lines.map((value) => ['Host', value] as const),
    );
    expectStatus(ex, [400], hostField, `for ${label}`);
  }
});

test(
  'GET protected path with a Host value outside uri-host [":" port] → 400',
  forRule(hostField),
  async ({ kit }) => {
    const endpoint = need(kit.endpoint('protected'), 'endpoints.protected', 'no protected path');
    const url = new URL(kit.target.baseUrl);
    for (const { label, value } of invalidHostValues(url.host, url.port)) {
      const ex = await kit.target.sendLines({ method: endpoint.method ?? 'GET', path: endpoint.path }, [
        ['Host', value],
      ]);
      expectStatus(ex, [400], hostField, `for ${label} (Host: ${value})`);
    }
  },
);
