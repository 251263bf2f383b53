/**
 * The Host field (RFC 9112 §3.2): 400 for two Host lines and for a Host value outside its grammar, without
 * credentials, on a declared path — the public one where there is one, so a target that ignores the Host
 * answers it with the resource itself: whatever the target would answer the request otherwise, its framing
 * decides first. The lines and values come from specs/lib/host-values.ts.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, need } from '../kit/kit.ts';
import { duplicateHostLines, invalidHostValues } from '../lib/host-values.ts';
import { hostField } from '../rules/host-field.ts';
import { expectStatus } from '../verdict/verify.ts';

/** A GET the profile declares: the public path, else the protected one, else the admin one. */
function declaredGet(kit: Kit): { method: string; path: string } {
  const endpoint = need(
    kit.endpoint('public') ?? kit.endpoint('protected') ?? kit.endpoint('admin'),
    'endpoints.public | protected | admin',
    'no declared path',
  );
  return { method: endpoint.method ?? 'GET', path: endpoint.path };
}

test('GET a declared path with two Host lines → 400', forRule(hostField), async ({ kit }) => {
  const request = declaredGet(kit);
  const own = new URL(kit.target.baseUrl).host;
  for (const { label, lines } of duplicateHostLines(own)) {
    const ex = await kit.target.sendLines(
      request,
      lines.map((value) => ['Host', value] as const),
    );
    expectStatus(ex, [400], hostField, `for ${label}`);
  }
});

test(
  'GET a declared path with a Host value outside uri-host [":" port] → 400',
  forRule(hostField),
  async ({ kit }) => {
    const request = declaredGet(kit);
    const url = new URL(kit.target.baseUrl);
    for (const { label, value } of invalidHostValues(url.host, url.port)) {
      const ex = await kit.target.sendLines(request, [['Host', value]]);
      expectStatus(ex, [400], hostField, `for ${label} (Host: ${value})`);
    }
  },
);
