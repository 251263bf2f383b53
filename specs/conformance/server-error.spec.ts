/** 500 when the profile knows how to provoke it, with a body that leaks nothing (seed §7; RFC 9110 §15.6.1). */
import { forRule, test } from '../fixtures.ts';
import type { Exchange } from '../lib/http.ts';
import { type Kit, need, SCHEMES, unmet } from '../lib/kit.ts';
import { expectRule, expectStatus } from '../lib/verify.ts';
import { noStackTrace, serverError } from '../rules/server-error.ts';

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

/** Stack frames and dumps of common runtimes (Node, JVM, Python, .NET, PHP, Go, Ruby). */
const STACK_PATTERNS: readonly RegExp[] = [
  /\n\s+at [^\n]+\(?[^\n]*:\d+:\d+\)?/, // Node / V8
  /\bat [\w$.<>]+\([\w$]+\.java:\d+\)/, // JVM
  /Traceback \(most recent call last\)/, // Python
  /\bat [\w.<>`]+\(.*\) in [^\n]+:line \d+/, // .NET
  /(?:Fatal error|Stack trace):[^\n]*#0 /s, // PHP
  /goroutine \d+ \[running\]/, // Go
  /\.rb:\d+:in `/, // Ruby
  /node_modules\/|\/src\/[\w/.-]+\.(?:js|ts):\d+/, // source paths
];

test("the profile's fault trigger → 500", forRule(serverError), async ({ kit }) => {
  const ex = await provoke(kit);
  expectStatus(ex, [500], serverError);
});

test(
  "the profile's fault trigger → the 500 body carries no stack trace or source path",
  forRule(noStackTrace),
  async ({ kit }) => {
    const ex = await provoke(kit);
    if (ex.status !== 500) unmet(`the trigger answered ${ex.status}, not 500 (see server.500.fault)`);
    const hit = STACK_PATTERNS.find((re) => re.test(ex.body));
    expectRule(
      hit === undefined,
      noStackTrace,
      ex,
      'a body without stack frames or source paths',
      () => `a body matching ${String(hit)}`,
    );
  },
);
