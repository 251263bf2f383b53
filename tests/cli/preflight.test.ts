/**
 * The preflight's judgement of 404s (specs/lib/reachability.ts): a run is stopped as misaddressed only when every
 * declared endpoint answers 404; one other answer (a 401 from a protected path) means the paths exist.
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { everyAnswerIs404 } from '../../specs/lib/reachability.ts';
import { closedPort } from './broken-target.ts';

let server: http.Server;
let base: string;
test.beforeAll(async () => {
  // 401 on /protected, 404 everywhere else.
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(req.url === '/protected' ? 401 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('404 from every declared endpoint → the base URL is wrong', async () => {
  expect(await everyAnswerIs404([`${base}/users`, `${base}/admin`])).toBe(true);
});

test('one endpoint answering something else → the paths exist; the suite judges the 404s', async () => {
  expect(await everyAnswerIs404([`${base}/users`, `${base}/protected`, `${base}/admin`])).toBe(false);
});

test('no endpoint, or one without an answer → not judged here', async () => {
  expect(await everyAnswerIs404([])).toBe(false);
  expect(await everyAnswerIs404([`${base}/users`, `http://127.0.0.1:${await closedPort()}/x`])).toBe(false);
});
