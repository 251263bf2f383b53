/**
 * The load generator's ceiling: plain node:http answering `GET /users` with the mock's JSON bytes for it,
 * precomputed — no routing, no auth, no data engine. If a server's figure comes close to
 * this one, the benchmark measured autocannon, not the server. Prints its URL as one line on stdout.
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../mock/config.ts';

const users = (JSON.parse(readFileSync(join(FIXTURES_DIR, 'db.json'), 'utf8')) as { users: unknown }).users;
const body = Buffer.from(JSON.stringify(users));
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
