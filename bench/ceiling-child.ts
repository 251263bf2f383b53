/**
 * The load generator's ceiling: plain node:http answering with precomputed bytes — no routing, no auth, no
 * data engine. If a server's figure comes close to this one, the benchmark measured autocannon, not the
 * server. Prints its URL as one line on stdout.
 *
 * `GET /users`: the JSON of fixtures/db.json's users, fixed. `GET /replay/<id>`: the answer recorded for case
 * <id> (bench/recorded-answer.ts), replayed byte for byte — the parent sends recordings over IPC
 * ({ type: 'record', id, answer } → { type: 'recorded', id }), so each mock case is compared with a bare
 * server answering exactly what the mock answered.
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../mock/config.ts';
import { answerCpuProbes } from './cpu-probe.ts';
import type { RecordedAnswer } from './recorded-answer.ts';

interface Replay {
  readonly status: number;
  readonly headers: string[];
  readonly body: Buffer;
}

const REPLAY_PREFIX = '/replay/';
const users = (JSON.parse(readFileSync(join(FIXTURES_DIR, 'db.json'), 'utf8')) as { users: unknown }).users;
const body = Buffer.from(JSON.stringify(users));
const replays = new Map<string, Replay>();

const server = createServer((req, res) => {
  const url = req.url ?? '';
  const replay = url.startsWith(REPLAY_PREFIX) ? replays.get(url.slice(REPLAY_PREFIX.length)) : undefined;
  if (replay !== undefined) {
    res.writeHead(replay.status, replay.headers);
    res.end(replay.body);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('message', (message: { type: 'record'; id: string; answer: RecordedAnswer }) => {
  if (message.type !== 'record') return;
  const { status, headers, body: base64 } = message.answer;
  replays.set(message.id, { status, headers: [...headers], body: Buffer.from(base64, 'base64') });
  process.send?.({ type: 'recorded', id: message.id });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
answerCpuProbes();
