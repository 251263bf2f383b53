/**
 * 405 with Allow for a known path and an unsupported method (seed §7; RFC 9110 §15.5.6, §10.2.1),
 * sent with valid admin credentials so the answer does not depend on the target's order of checks.
 */
import { forRule, test } from '../fixtures.ts';
import type { Exchange } from '../lib/http.ts';
import { type Kit, need, unmet } from '../lib/kit.ts';
import { expectHeader, expectRule, expectStatus } from '../lib/verify.ts';
import { methodAllow, methodAllowExcludes, methodStatus } from '../rules/method.ts';

async function unsupported(kit: Kit): Promise<{ method: string; ex: Exchange }> {
  const endpoint = need(
    kit.endpoint('methodNotAllowed'),
    'endpoints.methodNotAllowed',
    'no known path with a method it does not support',
  );
  const method = need(
    endpoint.method,
    'endpoints.methodNotAllowed.method',
    'which method the path does not support',
  );
  const authorization = await kit.adminAuthorizationFor(endpoint);
  const ex = await kit.send({ method, path: endpoint.path }, authorization);
  return { method: method.toUpperCase(), ex };
}

/** RFC 9110 §10.2.1: Allow = #method; method = token. */
function allowList(value: string): string[] {
  return value
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
}

test(
  'known path with an unsupported method and valid admin credentials → 405',
  forRule(methodStatus),
  async ({ kit }) => {
    const { ex } = await unsupported(kit);
    expectStatus(ex, [405], methodStatus);
  },
);

test(
  'known path with an unsupported method → the 405 carries Allow',
  forRule(methodAllow),
  async ({ kit }) => {
    const { ex } = await unsupported(kit);
    if (ex.status !== 405) unmet(`the request answered ${ex.status}, not 405 (see method.405.status)`);
    expectHeader(ex, 'Allow', methodAllow, {
      test: (v) => /^\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*(,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*)*)?$/.test(v),
      expected: 'a comma-separated list of method tokens',
    });
  },
);

test(
  'known path with an unsupported method → Allow of the 405 does not list that method',
  forRule(methodAllowExcludes),
  async ({ kit }) => {
    const { method, ex } = await unsupported(kit);
    if (ex.status !== 405) unmet(`the request answered ${ex.status}, not 405 (see method.405.status)`);
    const allow = ex.headers.allow;
    if (allow === undefined) unmet('the 405 carries no Allow (see method.405.allow)');
    // Method names are case-sensitive (RFC 9110 §9.1).
    expectRule(
      !allowList(allow).includes(method),
      methodAllowExcludes,
      ex,
      `Allow without ${method}`,
      `Allow: ${allow}`,
    );
  },
);
