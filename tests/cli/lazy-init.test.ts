/**
 * A conformance run does not load `gatecheck init`'s OpenAPI parser: cli/app.ts imports the init command only
 * when it is the command given (docs/performance.md "The default run": start-up).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

test('cli/app.ts has no static import of cli/init; it loads it on the init command', () => {
  const source = readFileSync(new URL('../../cli/app.ts', import.meta.url), 'utf8');
  const staticImports = [...source.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
  expect(staticImports.filter((from) => from?.startsWith('./init/'))).toEqual([]);
  expect(source).toContain("await import('./init/command.ts')");
});
