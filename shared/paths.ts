/**
 * Where the package's files are, from any working directory: both halves read fixtures/ (keys, policy,
 * profiles, JSON Schemas) through these. In a clone the code runs as TypeScript from its sources; in the
 * installed package it runs as the JavaScript compiled into dist/ (docs/package.md), while fixtures/ stays
 * at the package root.
 */
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The root of the running code: the clone (this file is shared/paths.ts) or the package's dist/. */
export const CODE_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The package root: holds package.json and fixtures/ in a clone and in the installed package alike. */
export const PACKAGE_ROOT = basename(CODE_ROOT) === 'dist' ? dirname(CODE_ROOT) : CODE_ROOT;
export const FIXTURES_DIR = resolve(PACKAGE_ROOT, 'fixtures');
export const SCHEMAS_DIR = resolve(FIXTURES_DIR, 'schemas');
/** The extension of the running code's modules: `.ts` from sources (tsx, Playwright), `.js` once compiled. */
export const MODULE_EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/**
 * Code a child run loads from a root of its own: a compiled dist/ (`.js`) or a clone's sources (`.ts`), with the
 * environment it runs with (the mutation run and the stand-in corpus run take one).
 */
export interface CodeUnder {
  readonly root: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** The extension of the modules under a code root: `.js` in a compiled dist/, `.ts` in the sources. */
export function moduleExtUnder(codeRoot: string): '.js' | '.ts' {
  return basename(codeRoot) === 'dist' ? '.js' : '.ts';
}

/** A module of the running code by its source path without extension, e.g. `specs/report/reporter`. */
export function codeModule(pathWithoutExtension: string): string {
  return resolve(CODE_ROOT, `${pathWithoutExtension}${MODULE_EXT}`);
}
