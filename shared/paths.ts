/**
 * Where the package's files are, from any working directory: both halves read fixtures/ (keys, policy,
 * profiles, JSON Schemas) through these.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (this file is shared/paths.ts). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const FIXTURES_DIR = resolve(PACKAGE_ROOT, 'fixtures');
export const SCHEMAS_DIR = resolve(FIXTURES_DIR, 'schemas');
