/** 500 when the profile knows how to provoke it, with a body that leaks nothing (seed §7; RFC 9110 §15.6.1). */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, need, SCHEMES, unmet } from '../kit/kit.ts';
import { stackTraceIn } from '../lib/stack-trace.ts';
import { noStackTrace, serverError } from '../rules/server-error.ts';
import { expectRule, expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

async function provoke(kit: Kit): Promise<Exchange> {
  const fault = need(kit.profile.fault, 'fault', 'no way to provoke an unexpected condition on this target');
  const headers = { ...fault.headers };
  // Credentials too, unless the trigger brings its own: the fault path may be protected.
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    for (const scheme of SCHEMES) {
      const admin = await kit.authorization('admin', scheme);
      if (admin) {
        headers.Authorization = admin;
        break;
      }
    }
  }
  return kit.target.send({ method: fault.method ?? 'GET', path: fault.path, headers });
}

test("the profile's fault trigger → 500", forRule(serverError), async ({ kit }) => {
  const ex = await provoke(kit);
  expectStatus(ex, [500], serverError);
});

test(
  "the profile's fault trigger → the 500 body carries no stack trace or source path",
  forRule(noStackTrace),
  async ({ kit }) => {
    const ex = await provoke(kit);
    if (ex.status !== 500)
      unmet(`the trigger answered ${ex.status}, not 500 (see server.500.fault)`, ['server.500.fault']);
    const hit = stackTraceIn(ex.body);
    expectRule(
      hit === undefined,
      noStackTrace,
      ex,
      'a body without stack frames or source paths',
      () => `a body matching ${String(hit)}`,
    );
  },
);
