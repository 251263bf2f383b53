/**
 * The fuzz specs' two client modes, run through the suite as a user runs them (specs/kit/fuzz-fixtures.ts):
 * by default the cases go through node:http, outside Playwright's request tracing; with
 * GATECHECK_FUZZ_CLIENT=playwright they go through an APIRequestContext, and `--trace on` records them.
 */
import { expect, test } from '@playwright/test';
import { type JsonSpec, runSuite, specsOf } from '../helpers/run-suite.ts';

const RULE = 'jwt.attack.structure';
const ONLY = `--grep=@rule:${RULE.replace(/\./g, '\\.')}($|\\s)`;

function clientsOf(spec: JsonSpec): Record<string, number> {
  const fuzz = spec.tests[0]?.results[0]?.annotations.find((a) => a.type === 'fuzz')?.description ?? '';
  const clients = /clients (\{[^}]*\})/.exec(fuzz)?.[1];
  return clients ? (JSON.parse(clients) as Record<string, number>) : {};
}

function attachmentNames(spec: JsonSpec): string[] {
  return spec.tests.flatMap((t) => t.results.flatMap((r) => r.attachments.map((a) => a.name)));
}

test.describe.configure({ mode: 'parallel' });

test('default: the cases go through node:http and the rule passes', async () => {
  const run = await runSuite({ args: ['--workers=1', '--trace=on', ONLY] });
  expect(run.code, run.stderr).toBe(0);
  const [spec] = specsOf(run, RULE);
  if (!spec) throw new Error(`no test of ${RULE} ran:\n${run.stdout}`);
  expect(spec.tests[0]?.results[0]?.status).toBe('passed');
  expect(clientsOf(spec)['node:http']).toBeGreaterThan(0);
  expect(clientsOf(spec).playwright).toBeUndefined();
});

test('GATECHECK_FUZZ_CLIENT=playwright: the cases go through an APIRequestContext and --trace on records them', async () => {
  const run = await runSuite({
    args: ['--workers=1', '--trace=on', ONLY],
    env: { GATECHECK_FUZZ_CLIENT: 'playwright' },
  });
  expect(run.code, run.stderr).toBe(0);
  const [spec] = specsOf(run, RULE);
  if (!spec) throw new Error(`no test of ${RULE} ran:\n${run.stdout}`);
  expect(spec.tests[0]?.results[0]?.status).toBe('passed');
  expect(clientsOf(spec).playwright).toBeGreaterThan(0);
  expect(clientsOf(spec)['node:http']).toBeUndefined();
  expect(attachmentNames(spec)).toContain('trace');
});
