/**
 * Start-up of the stand-in on one document, in a fresh process: the time from the call to `startMock` until
 * it listens, and the process's resident set size before and then (`npx tsx scripts/stand-in-corpus/startup.ts <document> [--warm]`; prints one JSON line). 127.0.0.1 only.
 */
import { startMock } from '../../mock/server.ts';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: startup.ts <document> [--warm]');
// --warm: the stand-in's modules loaded first, so the time is the document's reading and compiling alone.
if (process.argv.includes('--warm')) {
  await import('../../mock/standin/build.ts');
  await import('../../cli/init/read-document.ts');
}
const rss = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const before = rss();
const t0 = performance.now();
const mock = await startMock({ openapi: file, port: 0 });
const listenMs = Math.round(performance.now() - t0);
const atListen = rss();
await mock.close();
console.log(
  JSON.stringify({ file: file.split('/').pop(), listenMs, rssBeforeMb: before, rssAtListenMb: atListen }),
);
