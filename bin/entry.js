// How both `bin` files start their program. Installed from the registry, the package holds the compiled
// JavaScript in dist/ (docs/package.md); in a clone, where the TypeScript sources are, tsx's loader is
// registered first and the source runs as it is.
import { existsSync } from 'node:fs';

/** Runs `<source>.ts` from a clone, else the compiled `dist/<source>.js`; `source` is relative to the root. */
export async function runEntry(source) {
  const typescript = new URL(`../${source}.ts`, import.meta.url);
  if (existsSync(typescript)) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(typescript.href);
  } else {
    await import(new URL(`../dist/${source}.js`, import.meta.url).href);
  }
}
