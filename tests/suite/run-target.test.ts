/**
 * A project's `runTarget` (specs/kit/fixtures.ts) is the environment its workers read: written over BASE_URL,
 * GATECHECK_PROFILE and GATECHECK_BUDGET, then resolved and validated as any run's target is
 * (specs/profile/resolve.ts) — so a project naming a target without a profile is refused as a run is —
 * and a worker of the run's own target takes the profile the run's set-up resolved.
 */
import { expect, test } from '@playwright/test';
import { ProfileError } from '../../specs/profile/load.ts';
import { resolveRunTarget } from '../../specs/profile/resolve.ts';
import type { Profile } from '../../specs/profile/types.ts';
import { baseUrlOf, profileFixture, runEnv } from '../../specs/run-target.ts';
import { MOCK_PROFILE } from '../helpers/run-suite.ts';

const outer = { BASE_URL: 'http://outer.example', GATECHECK_PROFILE: '/outer.json', GATECHECK_BUDGET: '7' };

test('an empty runTarget leaves the environment as it is', () => {
  expect(runEnv({}, outer)).toBe(outer);
});

test('each runTarget field wins over its variable; the others are kept', () => {
  expect(runEnv({ baseUrl: 'http://project.example' }, outer)).toEqual({
    ...outer,
    BASE_URL: 'http://project.example',
  });
  expect(runEnv({ profile: '/project.json', budget: 100 }, outer)).toEqual({
    ...outer,
    GATECHECK_PROFILE: '/project.json',
    GATECHECK_BUDGET: '100',
  });
});

test("a runTarget's env: the target's own variables, over the process's; its named fields over those", () => {
  const own = { GATECHECK_ADMIN_PASSWORD: 'project', BASE_URL: 'http://ignored.example' };
  const env = runEnv(
    { baseUrl: 'http://project.example', env: own },
    { ...outer, GATECHECK_ADMIN_PASSWORD: 'x' },
  );
  expect(env).toEqual({ ...outer, BASE_URL: 'http://project.example', GATECHECK_ADMIN_PASSWORD: 'project' });
});

test('a project naming a base URL without a profile is refused, one line naming GATECHECK_PROFILE', () => {
  const resolve = () => resolveRunTarget(runEnv({ baseUrl: 'http://project.example' }, {}));
  expect(resolve).toThrow(ProfileError);
  expect(resolve).toThrow(/GATECHECK_PROFILE is required when BASE_URL is set/);
});

test('a project naming both resolves to them; a malformed base URL is refused', () => {
  const env = runEnv({ baseUrl: 'http://127.0.0.1:9', profile: MOCK_PROFILE }, {});
  const resolved = resolveRunTarget(env);
  expect(resolved.baseUrl).toBe('http://127.0.0.1:9');
  expect(resolved.profile.name).toBe('gatecheck mock');
  expect(() => resolveRunTarget(runEnv({ baseUrl: 'ftp://x', profile: MOCK_PROFILE }, {}))).toThrow(
    /BASE_URL must be an http/,
  );
});

test("the base URL: BASE_URL of the worker's environment, else the profile's, else no target", () => {
  const profile = { baseUrl: 'http://profile.example' } as Profile;
  expect(baseUrlOf(runEnv({ baseUrl: 'http://project.example' }, outer), profile)).toBe(
    'http://project.example',
  );
  expect(baseUrlOf({}, profile)).toBe('http://profile.example');
  expect(() => baseUrlOf({}, {} as Profile)).toThrow(/no target/);
});

test("a worker of the run's target takes the profile the set-up handed down; a project naming its own target resolves its own", async () => {
  const [profileOf] = profileFixture;
  const handed = { handed: true } as unknown as Profile;
  const seen: Profile[] = [];
  const use = async (profile: Profile) => {
    seen.push(profile);
  };
  // The run's target (a budget alone names no other target): the set-up's profile, no file read.
  await profileOf({ runTarget: {}, setUpEnv: { profile: handed } }, use);
  await profileOf({ runTarget: { budget: 5 }, setUpEnv: { profile: handed } }, use);
  // A project's own profile, or a run without a host: resolved here.
  await profileOf({ runTarget: { profile: MOCK_PROFILE }, setUpEnv: { profile: handed } }, use);
  await profileOf({ runTarget: { profile: MOCK_PROFILE }, setUpEnv: { profile: undefined } }, use);
  // Variables of its own: the set-up's profile did not read them, so the project resolves its own.
  await profileOf({ runTarget: { profile: MOCK_PROFILE, env: {} }, setUpEnv: { profile: handed } }, use);
  expect(seen.slice(0, 2)).toEqual([handed, handed]);
  expect(seen.slice(2).map((p) => p.name)).toEqual(['gatecheck mock', 'gatecheck mock', 'gatecheck mock']);
});
