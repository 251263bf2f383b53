/**
 * One corpus document made ready for a conformance run (issue #43): the mock standing in for it (`--openapi`),
 * `gatecheck init` on the mock's `/openapi.json` in this process, as the CLI runs it (cli/init/command.ts), and
 * the credentials the mock prints (`--print-env`'s variables) — what run.ts hands Playwright as the
 * document's target.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runInit } from '../../cli/init/command.ts';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { PROFILE_CHECKED_ENV, readProfile } from '../../specs/profile/load.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { documentPath } from './documents.ts';

export interface PreparedDocument {
  readonly name: string;
  readonly mock: RunningMock;
  /**
   * The profile's base URL: the mock's, with the path prefix of the document's server, which init wrote in
   * (the CLI's target when no --base-url is given: cli/target.ts).
   */
  readonly baseUrl: string;
  readonly profilePath: string;
  /** The profile as the run resolves it, with the mock's credentials. */
  readonly profile: Profile;
  /** The mock's printed credentials, and the profile's digest: the checks do not validate it again. */
  readonly env: Readonly<Record<string, string>>;
  /** The rules init names up front as the document's own contradiction (`will fail against this document`). */
  readonly contradicted: readonly string[];
  readonly routes: number;
  readonly operations: number;
  readonly identities: number;
  /** The mock's start-up time. */
  readonly startMs: number;
}

/** Starts the document's mock and writes init's profile of it into `dir`; the caller closes the mock. */
export async function prepareDocument(name: string, dir: string): Promise<PreparedDocument> {
  const openapi = documentPath(name);
  const started = performance.now();
  const mock = await startMock({ openapi });
  const startMs = Math.round(performance.now() - started);
  try {
    const standIn = mock.standIn;
    if (standIn === undefined) throw new Error('the mock does not stand in for the document');
    const printed = Object.fromEntries((await standIn.environment(Date.now())).map((v) => [v.name, v.value]));
    await mkdir(dir, { recursive: true });
    const profilePath = path.join(dir, 'p.json');
    await runInit(
      { source: `${mock.url}/openapi.json`, out: profilePath, force: false, probe: undefined, writes: true },
      { out: () => {}, err: () => {} },
    );
    const written = JSON.parse(await readFile(profilePath, 'utf8')) as { todo?: string[] };
    const contradicted = (written.todo ?? [])
      .map((line) => /`([\w.-]+)` will fail against this document/.exec(line)?.[1])
      .filter((id): id is string => id !== undefined);
    // Validated here once, as the CLI validates it before the run (specs/profile/load.ts PROFILE_CHECKED_ENV).
    const { profile, digest } = readProfile(profilePath, { ...process.env, ...printed });
    if (profile.baseUrl === undefined) throw new Error(`init wrote no baseUrl for ${name}`);
    return {
      name,
      mock,
      baseUrl: profile.baseUrl,
      profilePath,
      profile,
      env: { ...printed, [PROFILE_CHECKED_ENV]: digest },
      contradicted,
      routes: standIn.router.routes.length,
      operations: standIn.operations,
      identities: standIn.identities.length,
      startMs,
    };
  } catch (error) {
    await mock.close();
    throw error;
  }
}
