/**
 * x-gatecheck-blocked and x-gatecheck-fault on a stand-in (issue #43, docs/package.md "What a document can
 * add"): a document's blocked clients (a country header, an X-Forwarded-For address from the loopback proxy
 * the mock trusts) get 403 and its closed operation is closed to everyone (seed §7 403 causes 2 and 5); its
 * fault headers get a 500 at its operation (seed §7 500). A document that states neither is served back with
 * the mock's own, which work as stated.
 */
import { expect, test } from '@playwright/test';
import { startMock } from '../../../mock/server.ts';
import { STAND_IN_DOCUMENT, writeStandInDocument } from './document.ts';

type Json = Record<string, unknown>;

test('a document that states neither is served back with the mock’s own blocked clients and fault header, which hold', async () => {
  const mock = await startMock({ openapi: await writeStandInDocument() });
  try {
    const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as Json;
    const blocked = served['x-gatecheck-blocked'] as { clients: { headers: Record<string, string> }[] };
    expect(blocked.clients.length).toBeGreaterThan(0);
    for (const client of blocked.clients)
      expect((await fetch(`${mock.url}/v2/health`, { headers: client.headers })).status).toBe(403);
    const fault = served['x-gatecheck-fault'] as { headers: Record<string, string> };
    expect(fault).toEqual({ headers: { 'X-Gatecheck-Fault': '500' } });
    expect((await fetch(`${mock.url}/v2/health`, { headers: fault.headers })).status).toBe(500);
    expect((await fetch(`${mock.url}/v2/health`)).status).toBe(200);
  } finally {
    await mock.close();
  }
});

test('the document’s own blocked clients, closed operation and fault headers', async () => {
  const mock = await startMock({
    openapi: await writeStandInDocument({
      ...STAND_IN_DOCUMENT,
      'x-gatecheck-blocked': {
        clients: [
          { label: 'country KP', headers: { 'X-Client-Country': 'KP' } },
          { label: 'an address', headers: { 'X-Forwarded-For': '203.0.113.77' } },
        ],
        closed: { path: '/admin/stats', method: 'GET' },
      },
      'x-gatecheck-fault': { headers: { 'X-Break': 'yes' }, path: '/health', method: 'GET' },
    }),
  });
  try {
    const health = (headers: Record<string, string>) =>
      fetch(`${mock.url}/v2/health`, { headers }).then((r) => r.status);
    expect(await health({ 'X-Client-Country': 'KP' })).toBe(403);
    expect(await health({ 'X-Client-Country': 'NL' })).toBe(200);
    expect(await health({ 'X-Forwarded-For': '203.0.113.77' })).toBe(403);
    expect(await health({ 'X-Forwarded-For': '203.0.113.78' })).toBe(200);
    expect(await health({ 'X-Break': 'yes' })).toBe(500);
    expect(await health({ 'X-Break': 'no' })).toBe(200);
    const env = new Map((await mock.standIn?.environment(Date.now()))?.map((v) => [v.name, v.value]));
    const admin = { authorization: `Bearer ${env.get('GATECHECK_ADMIN_BEARER')}` };
    const closed = await fetch(`${mock.url}/v2/admin/stats`, { headers: admin });
    expect(closed.status).toBe(403);
    expect(((await closed.json()) as Json).code).toBe('closed_route');
    // The fault is the document's operation's only: elsewhere the header is an ordinary one.
    expect((await fetch(`${mock.url}/v2/pets`, { headers: { ...admin, 'X-Break': 'yes' } })).status).toBe(
      200,
    );
  } finally {
    await mock.close();
  }
});
