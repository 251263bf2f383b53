/**
 * The suite against a hostile target: a target that answers garbage, hangs, resets connections,
 * drips its body forever, and redirects to another origin (tests/reliability/hostile-target.ts). The
 * conformance run — a child process with BASE_URL, a profile in a temporary folder with a 1 s request
 * timeout, and a few rules selected — must finish within its timeouts with clear errors (no answer in time is
 * no verdict: those checks are skipped, saying so), never carry
 * credentials to the other origin (it must see no Authorization at all), and write reports without a secret.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { FIXTURES_DIR } from '../../mock/config.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { runSuite, type SuiteRun, specsOf } from '../helpers/run-suite.ts';
import { type HostileTarget, startHostileTarget } from './hostile-target.ts';

const PROFILE = JSON.parse(readFileSync(join(FIXTURES_DIR, 'mock.profile.json'), 'utf8')) as Profile & {
  $schema?: string;
};
const TIMEOUT_MS = 1_000;

/** Every credential and key of the profile, as it could appear in a report: raw, and Basic's base64. */
function secrets(): string[] {
  const out: string[] = [];
  for (const identity of Object.values(PROFILE.identities)) {
    if (!identity) continue;
    if (identity.bearer) out.push(identity.bearer, identity.bearer.split('.')[2] ?? '');
    if (identity.apikey) out.push(identity.apikey);
    if (identity.basic) {
      out.push(identity.basic.password);
      out.push(
        Buffer.from(`${identity.basic.username}:${identity.basic.password}`, 'utf8').toString('base64'),
      );
    }
  }
  const jwk = PROFILE.jwt?.privateJwk as Record<string, unknown> | undefined;
  for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
    if (typeof jwk?.[part] === 'string') out.push(jwk[part] as string);
  return out.filter((s) => s.length >= 8);
}

/** Attachments in Playwright's JSON report are base64: decode them so the scan sees their text. */
function withDecodedAttachments(json: string): string {
  const decoded: string[] = [];
  for (const m of json.matchAll(/"body":\s*"([A-Za-z0-9+/=]+)"/g))
    decoded.push(Buffer.from(m[1] ?? '', 'base64').toString('utf8'));
  return `${json}\n${decoded.join('\n')}`;
}

function leaks(text: string): string[] {
  return secrets()
    .filter((s) => text.includes(s))
    .map((s) => `${s.slice(0, 6)}…`);
}

/** The reasons the rule's tests were skipped with (their `skip` annotations). */
function skipsOf(run: SuiteRun, ruleId: string): string[] {
  return specsOf(run, ruleId).flatMap((s) =>
    s.tests.flatMap((t) =>
      t.results.flatMap((r) =>
        r.annotations.filter((a) => a.type === 'skip').map((a) => a.description ?? ''),
      ),
    ),
  );
}

function errorsOf(run: SuiteRun, ruleId: string): string[] {
  return specsOf(run, ruleId).flatMap((s) =>
    s.tests.flatMap((t) => t.results.flatMap((r) => r.errors.map((e) => e.message ?? ''))),
  );
}

const RULES = [
  'success.200.public', // /users → garbage
  'success.200.admin', // /admin → hangs
  'route.404.unknown-path', // → connection reset
  'auth.malformed.duplicate-header', // node:http (two Authorization lines) → a body that drips forever
  'success.200.protected', // /protected → 307 to another origin, with each scheme's credentials
  'fuzz.wrong-credential.status', // node:http and raw-socket fuzz clients, to the redirecting path
];
const grep = `--grep=@rule:(${RULES.map((id) => id.replace(/\./g, '\\.')).join('|')})($|\\s)`;

let target: HostileTarget;
let run: SuiteRun;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  target = await startHostileTarget();
  const { $schema: _schema, ...profile } = PROFILE;
  run = await runSuite({
    args: [grep],
    env: { BASE_URL: target.url, GATECHECK_BUDGET: '200' },
    profile: { ...profile, budget: { ...profile.budget, timeoutMs: TIMEOUT_MS } },
    reporters: 'project',
    timeoutMs: 45_000,
    keep: true,
  });
});

test.afterAll(async () => {
  run?.dispose();
  await target?.close();
});

test('the run finishes within its timeouts and fails, having met every hostile behaviour', () => {
  expect(run.timedOut, `the run was killed after 45 s:\n${run.stdout.slice(-3000)}`).toBe(false);
  expect(run.code, run.stdout.slice(-3000)).toBe(1);
  // 6 rules, 1 s request timeouts: ≈ 12 s with Playwright's start-up and a worker restart per failed test on a
  // busy 2-core machine. A request that outlived its timeout would show as Playwright's 30 s test timeout.
  expect(run.wallMs).toBeLessThan(25_000);
  expect(run.json, `no JSON report; stderr: ${run.stderr.slice(-2000)}`).not.toBe('');
  for (const behaviour of ['garbage', 'hang', 'reset', 'drip', 'redirect'])
    expect(target.seen[behaviour] ?? 0, `the target ${behaviour}ed`).toBeGreaterThan(0);
});

test('each failure says what went wrong with the target, not an internal error', () => {
  const clear = /no answer from|expected|status|\b30[127]\b/i;
  for (const rule of RULES) {
    const errors = errorsOf(run, rule);
    for (const message of errors) {
      expect(message, `[${rule}] an error names the cause`).toMatch(clear);
      expect(message, `[${rule}] no crash inside the suite`).not.toMatch(
        /TypeError|ReferenceError|Cannot read prop/,
      );
    }
  }
  expect(errorsOf(run, 'success.200.public').join('\n')).toMatch(/no answer from GET .*\/users/);
  // No answer within budget.timeoutMs is no verdict (docs/design.md "A polite client"): skipped, saying so.
  expect(errorsOf(run, 'success.200.admin')).toEqual([]);
  expect(skipsOf(run, 'success.200.admin').join('\n')).toMatch(
    /no answer from GET .*\/admin.*timed out after 1000 ms \(budget\.timeoutMs\): a slow answer is no verdict/s,
  );
  expect(errorsOf(run, 'success.200.protected').join('\n')).toMatch(/307/);
  // A body that never ends is cut at the request timeout, not at Playwright's 30 s test timeout: no verdict.
  expect(skipsOf(run, 'auth.malformed.duplicate-header').join('\n')).toMatch(
    /no answer from GET .*timed out after 1000 ms \(budget\.timeoutMs\)/,
  );
});

test('a redirect to another origin is never followed: the other origin sees no request, and no credential', () => {
  expect(target.seen.redirect ?? 0).toBeGreaterThan(0);
  expect(
    target.otherOriginHits.filter((h) => h.credentialFields.length > 0),
    'credentials sent to the other origin',
  ).toEqual([]);
  expect(target.otherOriginHits, 'requests that followed the redirect').toEqual([]);
});

test('output and reports carry no credential or key', () => {
  expect(leaks(run.stdout), 'stdout').toEqual([]);
  expect(leaks(run.stderr), 'stderr').toEqual([]);
  expect(leaks(withDecodedAttachments(run.json)), "Playwright's JSON report, attachments decoded").toEqual(
    [],
  );
  const files = run.reportFiles();
  expect([...files.keys()].map((p) => p.slice(run.reportDir.length + 1)).sort()).toEqual(
    expect.arrayContaining(['conformance.json', 'summary.md', 'junit.xml']),
  );
  for (const [path, text] of files) expect(leaks(text), path).toEqual([]);
});
