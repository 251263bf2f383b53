/**
 * The full default catalogue against the mock as a deployment would meet it: over HTTPS with the mock's
 * generated CA (GATECHECK_CA_CERT, the variable behind --ca-cert), every credential from the environment, and
 * every Bearer identity's token fetched from the mock's token endpoint (RFC 6749 §4.4, §4.3) — once per
 * identity per lifetime, refreshed mid-run when the lifetime is short — with no secret and no fetched token
 * in any file the run writes.
 */

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { runSuite } from '../helpers/run-suite.ts';
import { filesBelow, scanForSecrets } from '../report/scan.ts';
import { envProfile, fetchedTokensIn, startTlsMock, tokenGrants } from './oauth-target.ts';

// A whole conformance run in a child process, twice: generous on a shared 2-core machine.
test.describe.configure({ timeout: 300_000 });

for (const lifetime of [3600, 4]) {
  test(`full catalogue over TLS with env secrets and fetched tokens (lifetime ${lifetime} s) → passes, tokens fetched once per identity per lifetime, nothing leaks`, async () => {
    // With a few seconds' lifetime, limits are off (and not declared): a rate-limit wait longer than the
    // lifetime would leave a fuzz plan holding an expired token — that case is the scheduler's, not this test's.
    const short = lifetime < 60;
    const mock = await startTlsMock(lifetime, { limits: !short });
    const { profile: declared, env, secrets } = envProfile();
    const { rateLimit: _, ...undeclared } = declared as Record<string, unknown>;
    const profile = short ? undeclared : declared;
    const started = Date.now();
    const run = await runSuite({
      profile,
      env: { ...env, BASE_URL: mock.url, GATECHECK_CA_CERT: mock.caPath as string },
      reporters: 'project',
      // Every request goes over TLS on a shared 2-core machine: the rate-limit burst needs more than 30 s there.
      args: ['--timeout', '120000'],
      keep: true,
      timeoutMs: 280_000,
    });
    const seconds = (Date.now() - started) / 1000;
    try {
      const grants = await tokenGrants(mock);
      expect(run.code, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(0);
      expect(run.report?.stats.unexpected).toBe(0);
      // The profile names no secret: the run could only have used the environment's.
      const written = JSON.stringify(profile);
      for (const secret of secrets) expect(written).not.toContain(secret);

      expect(Object.keys(grants).sort()).toEqual(['alice', 'bob', 'carol']);
      for (const count of Object.values(grants)) {
        if (lifetime === 3600) expect(count).toBe(1);
        // Refreshed a quarter of the lifetime early: at most one fetch per 3 s of run, plus the first.
        else expect(count).toBeLessThanOrEqual(Math.ceil(seconds / (lifetime * 0.75)) + 1);
      }
      // A few seconds' lifetime against a run of many seconds: the tokens were refreshed mid-run.
      if (lifetime === 4) expect(Math.max(...Object.values(grants))).toBeGreaterThan(1);

      const outputs = [run.reportDir];
      const { files, hits } = scanForSecrets(outputs, secrets);
      expect(files).toBeGreaterThan(2);
      expect(hits).toEqual([]);
      const leaked = filesBelow(run.reportDir).flatMap((f) => fetchedTokensIn(readFileSync(f, 'latin1')));
      expect(leaked).toEqual([]);
      for (const secret of secrets) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
      expect(fetchedTokensIn(run.stdout + run.stderr + run.json)).toEqual([]);
    } finally {
      run.dispose();
      await mock.close();
    }
  });
}
