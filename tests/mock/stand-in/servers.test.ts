/**
 * `createMock({ openapi })` from gatecheck/mock (issue #43) and per-operation `servers` (OpenAPI 3.1 §4.8.9,
 * §4.8.10: a Path Item's or an Operation's own servers override the document's): each operation is served
 * under its own server's path, and /openapi.json points those servers at the mock under the same path.
 */
import { expect, test } from '@playwright/test';
import { createMock, type RunningMock } from '../../../mock/server.ts';
import { writeStandInDocument } from './document.ts';

const ok = { '200': { description: 'ok', content: { 'application/json': { example: { ok: true } } } } };

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'servers per operation', version: '1' },
  servers: [{ url: 'https://api.example/v1' }],
  paths: {
    '/status': { get: { responses: ok } },
    '/uploads': { servers: [{ url: 'https://uploads.example/files' }], get: { responses: ok } },
    '/ping': { get: { servers: [{ url: '/internal' }], responses: ok } },
  },
};

let mock: RunningMock;
test.beforeAll(async () => {
  mock = await createMock({ openapi: await writeStandInDocument(DOCUMENT) });
});
test.afterAll(() => mock?.close());

test('createMock stands in for the document; each operation under its own server’s path', async () => {
  const status = (path: string) => fetch(`${mock.url}${path}`).then((r) => r.status);
  expect(mock.standIn?.operations).toBe(3);
  expect(await status('/v1/status')).toBe(200);
  expect(await status('/files/uploads')).toBe(200);
  expect(await status('/internal/ping')).toBe(200);
  expect(await status('/v1/uploads')).toBe(404);
  expect(await status('/v1/ping')).toBe(404);
});

test('/openapi.json points the operations’ own servers at the mock, under their path', async () => {
  const served = (await (await fetch(`${mock.url}/openapi.json`)).json()) as {
    servers: { url: string }[];
    paths: Record<string, { servers?: { url: string }[]; get: { servers?: { url: string }[] } }>;
  };
  expect(served.servers[0]?.url).toBe(`${mock.url}/v1`);
  expect(served.paths['/uploads']?.servers).toEqual([{ url: `${mock.url}/files` }]);
  expect(served.paths['/ping']?.get.servers).toEqual([{ url: `${mock.url}/internal` }]);
  expect(served.paths['/status']?.servers).toBeUndefined();
});
