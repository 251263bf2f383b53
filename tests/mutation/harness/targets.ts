/**
 * The targets of a mutation run: one mock per defect (and one conformant), each with the same settings, and
 * the profile the suite checks them with. The settings differ from the bundled mock's in one respect only:
 * a short rate limit on a route of its own, so the `ratelimit.*` rules' burst is 21 requests instead of
 * 10,001 and touches nothing the other rules use.
 *   /limited  GET, Bearer or Basic; group `burst`: 10 requests per 1 s per client, no ban
 *   default   every other route: 1,000,000 per 10 s (the fuzz phase's failed attempts never reach it)
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DefectName } from '../../../mock/defects/registry.ts';
import type { Policy } from '../../../mock/routing/policy.ts';
import { type RunningMock, type StartOptions, startMock } from '../../../mock/server.ts';
import type { Profile } from '../../../specs/profile/types.ts';
import { ROOT } from './paths.ts';

export const BURST = { limit: 10, windowSeconds: 1 } as const;

export interface TargetFiles {
  readonly dataPath: string;
  readonly policy: Policy;
  readonly profilePath: string;
}

/** Writes the seed data (the fixtures' plus `limited`) and the profile into `dir`. */
export async function writeTargetFiles(dir: string): Promise<TargetFiles> {
  await mkdir(dir, { recursive: true });
  const data = JSON.parse(await readFile(join(ROOT, 'fixtures/db.json'), 'utf8')) as Record<string, unknown>;
  data.limited = {
    message: 'A route with a short rate limit, for the ratelimit.* rules of the mutation run.',
  };
  const dataPath = join(dir, 'db.json');
  await writeFile(dataPath, JSON.stringify(data, null, 2));

  const base = JSON.parse(await readFile(join(ROOT, 'fixtures/policy.json'), 'utf8')) as Policy;
  // The bundled policy has /limited too (in its own group); the mutation run gives it the `burst` group below.
  const limited = { path: '/limited', methods: { GET: { schemes: ['bearer', 'basic'] } } } as const;
  const policy: Policy = {
    routes: [...base.routes.filter((r) => r.path !== limited.path), limited],
  };

  const profile = JSON.parse(await readFile(join(ROOT, 'fixtures/mock.profile.json'), 'utf8')) as Profile & {
    $schema?: string;
  };
  const { $schema: _schema, ...rest } = profile;
  const mutationProfile: Profile = {
    ...rest,
    name: 'gatecheck mock (mutation run)',
    rateLimit: {
      ...BURST,
      identity: 'ratelimit',
      endpoint: { path: '/limited', method: 'GET', schemes: ['bearer', 'basic'] },
      // The burst group counts /limited only (the default group's million is never reached): the suite's
      // scheduler paces that route alone, as it does the bundled mock's (fixtures/mock.profile.json).
      appliesTo: 'endpoint',
    },
  };
  const profilePath = join(dir, 'profile.json');
  await writeFile(profilePath, JSON.stringify(mutationProfile, null, 2));
  return { dataPath, policy, profilePath };
}

/** The mock options of every target; `defects` empty for the conformant one. */
export function targetOptions(files: TargetFiles, defects: readonly DefectName[]): StartOptions {
  return {
    port: 0,
    host: '127.0.0.1',
    dataPath: files.dataPath,
    policy: files.policy,
    rateLimit: {
      enabled: true,
      groups: {
        default: { limit: 1_000_000, windowSeconds: 10, banAfter: 1_000_000, banSeconds: 0 },
        burst: { ...BURST, banAfter: 1_000, banSeconds: 0 },
      },
      routes: { '/limited': 'burst' },
    },
    defects: [...defects],
    // Defects that crash requests are expected to; their errors are the matrix's business, not stderr's.
    onError: () => undefined,
  };
}

export function startTarget(files: TargetFiles, defects: readonly DefectName[]): Promise<RunningMock> {
  return startMock(targetOptions(files, defects));
}
