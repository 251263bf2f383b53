/**
 * The mock standing in for a large document (issue #43): start-up of a generated OpenAPI document of 1,000
 * operations (250 path templates × GET, POST, PUT, DELETE, oauth2 scopes on writes, a global Bearer
 * requirement), and the requests per second of its routes against the default mock's, in one run on one
 * machine — a ratio, never a timed test. Each mock runs in this process, one after the other (the default
 * first), under autocannon with the same connections and duration; the first 2 s warm up and are not counted.
 *
 *   npx tsx bench/stand-in-bench.ts [--seconds 5]
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startMock } from '../mock/server.ts';
import { ADMIN, UNREACHABLE_RATE_LIMIT } from './setups.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] || 5);

/** 250 resources, each `/r<n>` (GET public, POST) and `/r<n>/{id}` (GET, PUT, DELETE). */
export function largeDocument(resources = 250): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  for (let i = 0; i < resources; i++) {
    paths[`/r${i}`] = {
      get: {
        security: [],
        responses: {
          '200': {
            description: 'list',
            content: { 'application/json': { example: [{ id: 1, name: 'one' }] } },
          },
        },
      },
      post: {
        security: [{ bearer: [] }, { oauth: [`r${i}:write`] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { ...item, required: ['name'] } } },
        },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: item } } } },
      },
    };
    paths[`/r${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 1 }],
      get: {
        responses: { '200': { description: 'one', content: { 'application/json': { schema: item } } } },
      },
      put: { security: [{ oauth: [`r${i}:write`] }], responses: { '200': { description: 'replaced' } } },
      delete: { security: [{ oauth: [`r${i}:write`] }], responses: { '204': { description: 'gone' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'A thousand operations', version: '1' },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } },
      },
    },
  };
}

async function rps(url: string, headers: Record<string, string> = {}): Promise<number> {
  const base = { url, connections: 10, headers };
  await autocannon({ ...base, duration: 2 });
  const result = await autocannon({ ...base, duration: seconds });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return result.requests.average;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-stand-in-bench-'));
  const file = path.join(dir, 'large.json');
  await writeFile(file, JSON.stringify(largeDocument()));

  // The default mock first, then the stand-in: each warmed up, each alone.
  const plain = await startMock({ rateLimit: UNREACHABLE_RATE_LIMIT });
  const defaultPublic = await rps(`${plain.url}/users`);
  const defaultBearer = await rps(`${plain.url}/protected`, { authorization: `Bearer ${ADMIN.bearer}` });
  await plain.close();

  const t0 = performance.now();
  const large = await startMock({ openapi: file, rateLimit: UNREACHABLE_RATE_LIMIT });
  const startMs = performance.now() - t0;
  const token = (await large.standIn?.environment(Date.now()))?.find(
    (v) => v.name === 'GATECHECK_USER_BEARER',
  )?.value;
  const standInPublic = await rps(`${large.url}/r123`);
  const standInBearer = await rps(`${large.url}/r123/1`, { authorization: `Bearer ${token}` });
  await large.close();

  const pct = (a: number, b: number) => `${Math.round((100 * a) / b)} %`;
  process.stdout.write(
    [
      `| setup | start-up | public GET req/s | Bearer GET req/s |`,
      `|---|---|---|---|`,
      `| default mock | – | ${Math.round(defaultPublic)} | ${Math.round(defaultBearer)} |`,
      `| --openapi, 1,000 operations | ${Math.round(startMs)} ms | ${Math.round(standInPublic)} (${pct(standInPublic, defaultPublic)}) | ${Math.round(standInBearer)} (${pct(standInBearer, defaultBearer)}) |`,
      '',
    ].join('\n'),
  );
}
