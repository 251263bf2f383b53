/**
 * json-server's data engine, shipped inside the package (issue #71). The mock imports two modules of
 * json-server (mock/resources/json-server.ts: `lib/service.js`, `lib/parse-where.js`); every json-server from
 * 1.0.0-beta.4 on declares Node ≥ 22.12 for the package as a whole — its command-line server (tinyhttp,
 * chokidar, sirv), which gatecheck never runs — and 1.0.0-beta.3, the last that admits Node 20, has neither
 * the `where` query language nor `parse-where.js`. So json-server is a devDependency, pinned, and the build
 * copies the modules the compiled code imports, with the modules they import in turn, verbatim, into
 * dist/vendor/json-server/ beside json-server's LICENSE (MIT: the notice travels with the copy), and points
 * the compiled imports there. What those modules import from npm must be the package's own dependencies
 * (inflection, sort-on, dot-prop, lowdb): the build fails otherwise, as it does for an import it cannot place.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../shared/paths.ts';

/** `from 'json-server/lib/x.js'` (or `import('…')`) in compiled code: the quote and the path inside the package. */
const PACKAGE_IMPORT = /(?<=(?:\bfrom\s*|\bimport\s*\(\s*))(['"])json-server\/([^'"]+)\1/g;
/** Every module specifier of an ES module's static imports and re-exports. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*)(['"])([^'"]+)\1/g;

/** Where the copy goes, under dist. */
export const VENDOR_DIR = 'vendor/json-server';

/** The compiled files under `dist` (recursively) whose name ends with `ext`. */
function filesOf(dist: string, ext: string): string[] {
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(ext))
    .map((file) => join(dist, file));
}

/** The json-server modules `entries` import, transitively (relative imports inside json-server). */
function closure(packageDir: string, entries: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    const full = join(packageDir, file);
    if (!existsSync(full)) throw new Error(`vendor: json-server has no ${file}`);
    seen.add(file);
    for (const [, , specifier] of readFileSync(full, 'utf8').matchAll(SPECIFIER))
      if (specifier?.startsWith('.')) queue.push(posix.join(posix.dirname(file), specifier));
  }
  return seen;
}

/** The npm packages a module imports (neither relative nor `node:`), by their package name. */
function packagesImported(source: string): string[] {
  const out: string[] = [];
  for (const [, , specifier] of source.matchAll(SPECIFIER)) {
    if (specifier === undefined || specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    out.push(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
  }
  return out;
}

/**
 * Copies the json-server modules the compiled code under `dist` imports into `dist/vendor/json-server/` and
 * rewrites those imports to relative ones; the number of modules copied (0 when nothing imports json-server).
 */
export function vendorJsonServer(dist: string): number {
  const importers: string[] = [];
  const wanted = new Set<string>();
  for (const file of filesOf(dist, '.js')) {
    const inside = [...readFileSync(file, 'utf8').matchAll(PACKAGE_IMPORT)].map((match) => match[2] ?? '');
    if (inside.length > 0) importers.push(file);
    for (const module of inside) wanted.add(module);
  }
  if (wanted.size === 0) return 0;
  const typed = filesOf(dist, '.d.ts').filter((file) => /['"]json-server\//.test(readFileSync(file, 'utf8')));
  if (typed.length > 0)
    throw new Error(`vendor: declarations import json-server, which ships none: ${typed.join(', ')}`);

  const packageDir = dirname(createRequire(import.meta.url).resolve('json-server/package.json'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const { dependencies = {} } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const target = join(dist, VENDOR_DIR);
  const modules = closure(packageDir, wanted);
  for (const file of modules) {
    const source = readFileSync(join(packageDir, file), 'utf8');
    const missing = packagesImported(source).filter((name) => !(name in dependencies));
    if (missing.length > 0)
      throw new Error(
        `vendor: json-server's ${file} imports ${missing.join(', ')}, not in package.json dependencies`,
      );
    mkdirSync(dirname(join(target, file)), { recursive: true });
    writeFileSync(
      join(target, file),
      `// json-server ${version} ${file}, copied by gatecheck's build (scripts/vendor-json-server.ts), unchanged below this line; MIT, ../LICENSE\n${source}`,
    );
  }
  cpSync(join(packageDir, 'LICENSE'), join(target, 'LICENSE'));

  for (const file of importers) {
    const text = readFileSync(file, 'utf8').replace(
      PACKAGE_IMPORT,
      (_match, quote: string, inside: string) => {
        const to = relative(dirname(file), resolve(target, inside)).split('\\').join('/');
        return `${quote}${to.startsWith('.') ? to : `./${to}`}${quote}`;
      },
    );
    writeFileSync(file, text);
  }
  return modules.size;
}
