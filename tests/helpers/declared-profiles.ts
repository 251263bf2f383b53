/** Profiles of the mock declared as other interfaces (issue #66), shared by the declaration's tests. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

// biome-ignore lint/suspicious/noExplicitAny: profile data edited freely by the cases that use it
export type ProfileJson = Record<string, any>;

/** The bundled mock's profile, a fresh copy. */
export const mockProfile = (): ProfileJson =>
  JSON.parse(readFileSync(path.join(ROOT, 'fixtures/mock.profile.json'), 'utf8')) as ProfileJson;

/** The mock's profile declared as a Bearer-only, read-only API (the Express API). */
export function bearerReadOnly(): ProfileJson {
  const p = mockProfile();
  p.endpoints.protected.schemes = ['bearer'];
  p.endpoints.methodNotAllowed.schemes = ['bearer'];
  delete p.endpoints.collection;
  delete p.blocked;
  delete p.fault;
  for (const identity of Object.values(p.identities) as ProfileJson[]) {
    delete identity.basic;
    delete identity.apikey;
  }
  p.rateLimit.endpoint.schemes = ['bearer'];
  return p;
}
