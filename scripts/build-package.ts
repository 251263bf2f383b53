/**
 * `npm run build` (and `npm pack`'s prepack): compiles the product's TypeScript into dist/ as JavaScript
 * with declarations, beside which Playwright and Node run it from node_modules, where neither transforms
 * TypeScript. The compiler is the repository's own `tsc` (tsconfig.build.json): one file out per file in,
 * so every path the code resolves relative to itself still holds, and `.ts` import specifiers are rewritten
 * to `.js`. Data files that live beside the code (the report's JSON Schema, test vectors) are copied, and so
 * are the json-server modules the mock imports (./vendor-json-server.ts).
 * The self-tests compile the same way into a folder of their own (tests/setup/compiled-suite.ts).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../shared/paths.ts';
import { vendorJsonServer } from './vendor-json-server.ts';

/** The folders compiled into the package (tsconfig.build.json's `include`). */
const CODE_DIRS = ['cli', 'mock', 'shared', 'specs'];
const DIST = resolve(PACKAGE_ROOT, 'dist');

const BUILD_CONFIG = resolve(PACKAGE_ROOT, 'tsconfig.build.json');

/**
 * Empties `dist` and compiles into it; the number of files copied (data, vendored modules). Throws if `tsc` fails. `extra`: more
 * entry files (paths from the package root) compiled with the package, each to its place under `dist`, as the
 * self-tests' copy takes the configs of their own child runs (tests/setup/compile-suite.ts); none for the
 * package itself.
 */
export function buildPackage(dist: string = DIST, extra: readonly string[] = []): number {
  rmSync(dist, { recursive: true, force: true });
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const project = extra.length === 0 ? BUILD_CONFIG : withEntries(dist, extra);
  const compiled = spawnSync(process.execPath, [tsc, '-p', project, '--outDir', dist], { stdio: 'inherit' });
  if (extra.length > 0) rmSync(project, { force: true });
  if (compiled.status !== 0) throw new Error(`tsc exited with ${compiled.status ?? compiled.signal}`);
  let copied = 0;
  for (const dir of CODE_DIRS) {
    for (const file of readdirSync(resolve(PACKAGE_ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      // Data beside the code, and the hand-written CommonJS entry (specs/project/index.cjs).
      if (!file.endsWith('.json') && !file.endsWith('.cjs')) continue;
      const source = join(PACKAGE_ROOT, dir, file);
      cpSync(source, join(dist, relative(PACKAGE_ROOT, source)));
      copied++;
    }
  }
  // json-server's data engine travels inside dist/ (scripts/vendor-json-server.ts): a devDependency, not the user's.
  return copied + vendorJsonServer(dist);
}

/** A tsconfig beside `dist` extending the build's, its `include` and `extra` (absolute: it lives elsewhere). */
function withEntries(dist: string, extra: readonly string[]): string {
  const { include } = JSON.parse(readFileSync(BUILD_CONFIG, 'utf8')) as { include: string[] };
  const file = join(dirname(dist), 'tsconfig.entries.json');
  const entries = [...include, ...extra].map((entry) => resolve(PACKAGE_ROOT, entry));
  // Types are looked up from the config's folder: the package's, where this one is not.
  const typeRoots = [resolve(PACKAGE_ROOT, 'node_modules', '@types')];
  writeFileSync(
    file,
    JSON.stringify({ extends: BUILD_CONFIG, compilerOptions: { typeRoots }, include: entries }),
  );
  return file;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const copied = buildPackage();
    process.stderr.write(
      `build: compiled into ${relative(process.cwd(), DIST) || '.'}/, ${copied} files copied (data, vendored modules)\n`,
    );
  } catch (error) {
    process.stderr.write(`build: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
