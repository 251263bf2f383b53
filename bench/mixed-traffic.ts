/**
 * Mixed authenticated traffic for load runs (the soak run and tests/reliability/load.test.ts): every scheme,
 * both identities, a write, a refusal of each kind — each request with the one status it must get. Sent by
 * autocannon, each connection cycling through the list; every answer is checked against its expectation.
 *
 * The mock runs with the rate limit out of reach (bench/setups.ts): 64 connections send far more than the
 * default 5,000 requests per 10 s, and the point here is that nothing ELSE goes wrong under load.
 */

import type { AutocannonRequest } from 'autocannon';
import { ADMIN, authorizationValues, USER } from './setups.ts';

export interface ExpectedRequest {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly status: number;
}

export async function mixedRequests(): Promise<ExpectedRequest[]> {
  const admin = await authorizationValues(ADMIN);
  const user = await authorizationValues(USER);
  const json = { 'content-type': 'application/json' };
  return [
    {
      label: 'GET /protected, Bearer RS256 (bob)',
      method: 'GET',
      path: '/protected',
      headers: { authorization: user.bearerRs256 },
      status: 200,
    },
    {
      label: 'GET /protected, Bearer ES256 (alice)',
      method: 'GET',
      path: '/protected',
      headers: { authorization: admin.bearerEs256 },
      status: 200,
    },
    {
      label: 'GET /protected, Basic (bob)',
      method: 'GET',
      path: '/protected',
      headers: { authorization: user.basic },
      status: 200,
    },
    {
      label: 'GET /admin, Bearer (alice)',
      method: 'GET',
      path: '/admin',
      headers: { authorization: admin.bearerRs256 },
      status: 200,
    },
    {
      label: 'GET /admin, Bearer (bob) → 403',
      method: 'GET',
      path: '/admin',
      headers: { authorization: user.bearerRs256 },
      status: 403,
    },
    { label: 'GET /users, public', method: 'GET', path: '/users', headers: {}, status: 200 },
    {
      label: 'GET /users/1, Apikey (bob)',
      method: 'GET',
      path: '/users/1',
      headers: { authorization: user.apikey },
      status: 200,
    },
    // A write that keeps the data the same size, so memory can stay flat however long the run.
    {
      label: 'PATCH /users/2, Apikey (alice)',
      method: 'PATCH',
      path: '/users/2',
      headers: { authorization: admin.apikey, ...json },
      body: JSON.stringify({ name: 'Bob User' }),
      status: 200,
    },
    {
      label: 'PATCH /users/2, Basic (bob) → 403',
      method: 'PATCH',
      path: '/users/2',
      headers: { authorization: user.basic, ...json },
      body: '{"name":"x"}',
      status: 403,
    },
    {
      label: 'GET /protected, no credentials → 401',
      method: 'GET',
      path: '/protected',
      headers: {},
      status: 401,
    },
  ];
}

export interface Tally {
  readonly byLabel: Map<string, { ok: number; unexpected: Map<number, number> }>;
  unexpected(): number;
  answered(): number;
  /** `label: status×n` for each unexpected answer. */
  describe(): string[];
}

/** autocannon requests that count every answer against its expected status into `tally`. */
export function instrument(requests: readonly ExpectedRequest[]): {
  requests: AutocannonRequest[];
  tally: Tally;
} {
  const byLabel = new Map<string, { ok: number; unexpected: Map<number, number> }>();
  for (const r of requests) byLabel.set(r.label, { ok: 0, unexpected: new Map() });
  const tally: Tally = {
    byLabel,
    unexpected: () =>
      [...byLabel.values()].reduce((n, t) => n + [...t.unexpected.values()].reduce((a, b) => a + b, 0), 0),
    answered: () =>
      [...byLabel.values()].reduce(
        (n, t) => n + t.ok + [...t.unexpected.values()].reduce((a, b) => a + b, 0),
        0,
      ),
    describe: () =>
      [...byLabel.entries()].flatMap(([label, t]) =>
        [...t.unexpected.entries()].map(([status, n]) => `${label}: ${status}×${n}`),
      ),
  };
  return {
    tally,
    requests: requests.map((r) => ({
      method: r.method,
      path: r.path,
      headers: r.headers,
      ...(r.body === undefined ? {} : { body: r.body }),
      onResponse: (status: number) => {
        const t = byLabel.get(r.label);
        if (!t) return;
        if (status === r.status) t.ok++;
        else t.unexpected.set(status, (t.unexpected.get(status) ?? 0) + 1);
      },
    })),
  };
}
