/**
 * For code that reads credentials from the profile synchronously (the fuzz plans): the profile with each
 * run-time token (identities.X.token) put in as identities.X.bearer, fetched through the broker.
 */
import type { IdentityCredentials, Profile } from '../profile/types.ts';
import { tokenSources } from './broker.ts';
import { tokenFor } from './client.ts';

export async function withFetchedTokens(
  profile: Profile,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Profile> {
  const sources = tokenSources(profile);
  if (sources.length === 0) return profile;
  const identities: Record<string, IdentityCredentials | undefined> = { ...profile.identities };
  for (const [name] of sources) identities[name] = { ...identities[name], bearer: await tokenFor(name, env) };
  return { ...profile, identities };
}
