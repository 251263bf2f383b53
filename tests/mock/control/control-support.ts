/**
 * Shared by the access and control tests: a mock with short limits and a known control token, the control
 * API as a one-liner, a clock frozen at a window boundary, and the parsers of the rate-limit fields.
 */

import { expect, test } from '@playwright/test';
import type { RateLimitFile } from '../../../mock/access/rate-limit-settings.ts';
import { type RunningMock, type StartOptions, startMock } from '../../../mock/server.ts';
import type { IdentityCredentials } from '../../../specs/profile/types.ts';
import { type Answer, call, PROFILE } from '../mock-support.ts';

export const CONTROL_TOKEN = 'gatecheck-test-control-token';
/** carol: the profile's throw-away identity for rate limiting (PROFILE.identities.ratelimit). */
export const CAROL = PROFILE.identities.ratelimit as Required<IdentityCredentials>;

/** A multiple of every window used in these tests (10 s, 60 s): a frozen clock here starts a fresh window. */
export const WINDOW_START = 1_800_000_000_000;

export function startTestMock(options: StartOptions = {}): Promise<RunningMock> {
  return startMock({ port: 0, ...options, control: { token: CONTROL_TOKEN, ...options.control } });
}

/**
 * For a test file whose tests each start their own mock: registers an afterEach that closes every mock the
 * test started, and returns the function that starts one.
 */
export function mockPerTest(): (options?: StartOptions) => Promise<RunningMock> {
  const mocks: RunningMock[] = [];
  test.afterEach(async () => {
    await Promise.all(mocks.splice(0).map((m) => m.close()));
  });
  return async (options = {}) => {
    const mock = await startTestMock(options);
    mocks.push(mock);
    return mock;
  };
}

/** One control API call with the control token; the body, when given, is sent as JSON. */
export function control(mock: RunningMock, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(mock.url, method, `/__gatecheck${path}`, {
    headers: {
      authorization: `Bearer ${CONTROL_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export async function controlJson(mock: RunningMock, method: string, path: string, body?: unknown) {
  const answer = await control(mock, method, path, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.json();
}

/** Freezes the mock's clock at the start of a window, so a burst never straddles a boundary. */
export async function freezeAtWindowStart(mock: RunningMock): Promise<void> {
  await controlJson(mock, 'POST', '/clock', { set: WINDOW_START, freeze: true });
}

/** Moves the frozen clock `ms` on. */
export function advanceMs(mock: RunningMock, ms: number): Promise<unknown> {
  return controlJson(mock, 'POST', '/clock', { advanceMs: ms });
}

/**
 * A mock per test with these rate limits, its clock frozen at a window's start; 127.0.0.1 trusted as a proxy,
 * so X-Forwarded-For presents other client addresses.
 */
export function limitedMockPerTest(): (rateLimit: RateLimitFile) => Promise<RunningMock> {
  const start = mockPerTest();
  return async (rateLimit) => {
    const mock = await start({ rateLimit, access: { trustedProxies: ['127.0.0.1'] } });
    await freezeAtWindowStart(mock);
    return mock;
  };
}

export async function advance(mock: RunningMock, seconds: number): Promise<void> {
  await controlJson(mock, 'POST', '/clock', { advanceSeconds: seconds });
}

/** `"default";q=5;w=10` (draft-ietf-httpapi-ratelimit-headers: sf-list of a String with Integer parameters). */
export function parsePolicy(value: string | undefined): { name: string; q: number; w: number } {
  const m = /^"([^"\\]*)";q=(\d+);w=(\d+)$/.exec(value ?? '');
  expect(m, `RateLimit-Policy: ${value}`).not.toBeNull();
  return { name: (m as RegExpExecArray)[1] as string, q: Number(m?.[2]), w: Number(m?.[3]) };
}

/** `"default";r=4;t=10`. */
export function parseRateLimit(value: string | undefined): { name: string; r: number; t: number } {
  const m = /^"([^"\\]*)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  expect(m, `RateLimit: ${value}`).not.toBeNull();
  return { name: (m as RegExpExecArray)[1] as string, r: Number(m?.[2]), t: Number(m?.[3]) };
}

/** RFC 9110 §10.2.3 delay-seconds. */
export function retryAfter(answer: Answer): number {
  const value = answer.header('retry-after');
  expect(value, 'Retry-After').toMatch(/^\d+$/);
  return Number(value);
}
