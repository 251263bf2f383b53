/**
 * `gatecheck/profile`: the profile's types, its loader and validator (against
 * fixtures/schemas/profile.schema.json), and where the schema is — the package's public API for profiles
 * (docs/package.md, docs/profile.md).
 */
export { resolveEnvSecrets } from './env-secrets.ts';
export {
  DEFAULT_PROFILE_PATH,
  loadProfile,
  PROFILE_SCHEMA_PATH,
  ProfileError,
  parseProfile,
} from './load.ts';
export type * from './types.ts';
