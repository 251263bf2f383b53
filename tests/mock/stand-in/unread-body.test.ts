/**
 * A body an operation does not take (a DELETE's) is read to its end before the answer, so the connection
 * stays usable for the next request (RFC 9112 §9.3) — with `Expect: 100-continue` too, where the client sends
 * the body only after the `100 Continue` (RFC 9110 §10.1.1). Raw HTTP/1.1 over one socket to 127.0.0.1.
 */
import net from 'node:net';
import { expect, test } from '@playwright/test';
import { type RunningMock, startMock } from '../../../mock/server.ts';
import { DATA_DOCUMENT } from './data-document.ts';
import { writeStandInDocument } from './document.ts';

let mock: RunningMock;
let key: string;

test.beforeAll(async () => {
  mock = await startMock({ openapi: await writeStandInDocument(DATA_DOCUMENT) });
  const env = await mock.standIn?.environment(Date.now());
  key = env?.find((v) => v.name === 'GATECHECK_ADMIN_APIKEY')?.value ?? '';
});
test.afterAll(() => mock?.close());

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const expect100 of [false, true])
  test(`a DELETE with a chunked body${expect100 ? ' and Expect: 100-continue' : ''}, its body sent late: the next request on the connection is answered`, async () => {
    const socket = net.connect(Number(new URL(mock.url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString('latin1');
    });
    await new Promise((r) => socket.once('connect', r));
    const auth = `Authorization: Token ${key}\r\nHost: 127.0.0.1\r\n`;
    socket.write(
      `DELETE /api/dcim/sites/1/ HTTP/1.1\r\n${auth}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n${expect100 ? 'Expect: 100-continue\r\n' : ''}\r\n`,
    );
    await pause(200);
    socket.write('5\r\n{"a":\r\n2\r\n1}\r\n0\r\n\r\n');
    await pause(200);
    socket.write(`GET /api/dcim/sites/2/ HTTP/1.1\r\n${auth}\r\n`);
    await pause(300);
    socket.destroy();
    const statuses = [...received.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    expect(statuses.filter((s) => s !== 100)).toEqual([204, 200]);
  });
