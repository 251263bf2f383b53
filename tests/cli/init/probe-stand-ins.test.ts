/**
 * `gatecheck init --probe` against the mock standing in for three corpus documents (issue #69; mock/standin/,
 * docs/mock.md "Standing in for your own API"): the stand-in answers as its document states, while init reads a
 * copy of that document with one pick made wrong on purpose — a public path given a security requirement (so
 * it becomes the protected pick), a plain read marked as an administrator's (so it becomes the admin pick), a
 * protected path given `security: []` (so it becomes the public pick). Each wrong pick is passed over for the
 * next candidate, the answer that decided quoted in the to-do; the stand-in's journal holds only GETs under the
 * base URL, as many as init printed, at most PROBE_LIMIT.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runInit } from '../../../cli/init/command.ts';
import { PROBE_LIMIT, Prober } from '../../../cli/init/probe.ts';
import { verifyProfile } from '../../../cli/init/verify-endpoints.ts';
import { type RunningMock, startMock } from '../../../mock/server.ts';

// biome-ignore lint/suspicious/noExplicitAny: a served document is walked by key; its shape is the document's
type Json = Record<string, any>;

interface Case {
  readonly document: string;
  readonly wrong: string;
  /** Makes one pick wrong in the copy init reads; the stand-in keeps answering as the original states. */
  readonly modify: (doc: Json) => void;
  readonly role: 'public' | 'protected' | 'admin';
  readonly passedOver: string;
  readonly answer: string;
  readonly replacement: string;
  /** The requests the probe sends for this document (each printed, each in the journal). */
  readonly requests: number;
}

const CASES: readonly Case[] = [
  {
    document: 'vikunja.json',
    wrong: 'a protected path that is public (GET /info given the JWTKeyAuth requirement)',
    modify: (doc) => {
      doc.paths['/info'].get.security = [{ JWTKeyAuth: [] }];
    },
    role: 'protected',
    passedOver: 'GET /info',
    answer: 'GET /api/v1/info (no credentials) → 200 without credentials: it is not protected',
    replacement: '/user',
    requests: 7,
  },
  {
    document: 'immich.yaml',
    wrong:
      'an admin path the user may read (GET /server/about marked x-immich-admin-only, x-admin-only, tag Admin)',
    modify: (doc) => {
      Object.assign(doc.paths['/server/about'].get, {
        tags: ['Admin'],
        description: 'Requires admin privileges.',
        'x-immich-admin-only': true,
        'x-admin-only': true,
      });
    },
    role: 'admin',
    passedOver: 'GET /server/about',
    answer:
      'GET /api/server/about (user, bearer from GATECHECK_USER_BEARER) → 200: the user may read it, so it is no admin read',
    replacement: '/admin/users',
    requests: 10,
  },
  {
    document: 'okta.yaml',
    wrong: 'a public path that is protected (GET /api/v1/org given security: [])',
    modify: (doc) => {
      doc.paths['/api/v1/org'].get.security = [];
    },
    role: 'public',
    passedOver: 'GET /api/v1/org',
    answer: 'GET /api/v1/org (no credentials) → 401: the public read must answer 2xx without credentials',
    replacement: '/.well-known/okta-organization',
    requests: 5,
  },
];

async function journal(mock: RunningMock): Promise<{ method: string; path: string; status: number }[]> {
  const response = await fetch(`${mock.control?.url}/journal`, {
    headers: { authorization: `Bearer ${mock.control?.token}` },
  });
  return ((await response.json()) as { entries: { method: string; path: string; status: number }[] }).entries;
}

for (const c of CASES)
  test(`--probe against the stand-in for ${c.document}, ${c.wrong} → passed over for ${c.replacement}, the answer quoted; ${c.requests} GETs, no write`, async () => {
    const mock = await startMock({ openapi: path.join(import.meta.dirname, 'corpus', c.document) });
    const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-probe-'));
    try {
      const env = Object.fromEntries(
        (await mock.standIn?.environment(Date.now()))?.map((v) => [v.name, v.value]) ?? [],
      );
      const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as Json;
      const baseUrl = String(served.servers[0].url);
      c.modify(served);
      await writeFile(path.join(dir, 'doc.json'), JSON.stringify(served));
      const before = (await journal(mock)).length;
      let stdout = '';
      const out = path.join(dir, 'profile.json');
      await runInit(
        { source: path.join(dir, 'doc.json'), out, force: false, probe: baseUrl, env },
        {
          out: (t) => {
            stdout += t;
          },
          err: (t) => {
            stdout += t;
          },
        },
      );
      const profile = JSON.parse(await readFile(out, 'utf8')) as Json;
      expect(profile.endpoints[c.role]?.path).toBe(c.replacement);
      const line = (profile.todo as string[]).find((t) => t.startsWith(`/endpoints/${c.role}:`)) ?? '';
      expect(line).toContain(`--probe passed over ${c.passedOver} (${c.answer})`);
      expect(line).toContain(c.replacement);
      expect(stdout).toContain(`  - ${c.role} ${c.passedOver}: passed over — ${c.answer}`);
      expect(stdout).toContain(`  - ${c.role} GET ${c.replacement}: not contradicted`);

      // What was sent: only GETs, under the base URL, as many as printed, within the budget.
      const printed = stdout.split('\n').filter((l) => l.startsWith('  GET '));
      const seen = (await journal(mock)).slice(before);
      expect(seen.map((e) => e.method)).toEqual(printed.map(() => 'GET'));
      expect(seen).toHaveLength(c.requests);
      expect(c.requests).toBeLessThanOrEqual(PROBE_LIMIT);
      const prefix = new URL(baseUrl).pathname.replace(/\/$/, '');
      for (const e of seen) expect(e.path.startsWith(`${prefix}/`)).toBe(true);
    } finally {
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

test('verifyProfile (for check --probe) on an existing profile: the profile init wrote for the Immich stand-in holds — each read not contradicted, 7 GETs', async () => {
  const mock = await startMock({ openapi: path.join(import.meta.dirname, 'corpus', 'immich.yaml') });
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-verify-'));
  try {
    const env = Object.fromEntries(
      (await mock.standIn?.environment(Date.now()))?.map((v) => [v.name, v.value]) ?? [],
    );
    const out = path.join(dir, 'profile.json');
    await runInit(
      { source: `${mock.url}/openapi.json`, out, force: false, probe: undefined },
      { out: () => {}, err: () => {} },
    );
    const profile = JSON.parse(await readFile(out, 'utf8')) as Json;
    const prober = new Prober(String(profile.baseUrl));
    const verdicts = await verifyProfile(prober, profile, env);
    expect(verdicts.map((v) => [v.role, v.endpoint, v.contradiction])).toEqual([
      ['public', 'GET /server/ping', undefined],
      ['protected', 'GET /tags', undefined],
      ['admin', 'GET /admin/users', undefined],
    ]);
    expect(prober.sent.map((a) => `${a.request} → ${a.status}`)).toContain(
      'GET /api/admin/users (user, bearer from GATECHECK_USER_BEARER) → 403',
    );
    expect(prober.sent).toHaveLength(7);
  } finally {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  }
});
