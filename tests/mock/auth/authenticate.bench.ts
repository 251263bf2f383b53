/**
 * Micro-measure of Authenticator.authenticate() per call, per scheme, cache hit vs miss.
 * Run: npx tsx tests/mock/auth/authenticate.bench.ts   (not a test: no assertions, prints a table)
 */
import type { Authenticator, Scheme } from '../../../mock/auth/types.ts';
import { authenticator, basicHeader, credentialsOf, mint, NOW } from './helpers.ts';

const ALL: readonly Scheme[] = ['bearer', 'basic', 'apikey'];

/** Mean µs per call over `values`, awaited one after another (latency, not throughput). */
async function measure(auth: Authenticator, values: readonly string[]): Promise<number> {
  const start = process.hrtime.bigint();
  for (const value of values) {
    const result = await auth.authenticate([value], ALL, NOW);
    if (!result.ok && result.code !== 'basic_wrong_password')
      throw new Error(`${result.code}: ${result.reason}`);
  }
  return Number(process.hrtime.bigint() - start) / 1000 / values.length;
}

const repeat = (value: string, times: number): string[] => Array.from({ length: times }, () => value);

async function main(): Promise<void> {
  const cached = await authenticator({ cacheSize: 10_000 });
  const uncached = await authenticator({ cacheSize: 0 });
  const { basic, apikey } = credentialsOf('user');
  const basicValue = basicHeader(`${basic.username}:${basic.password}`);
  const rows: [string, string, number][] = [];

  for (const alg of ['RS256', 'ES256'] as const) {
    const fresh = await Promise.all(
      Array.from({ length: 400 }, (_, i) => mint({ alg, claims: { jti: `${alg}-${i}` } })),
    );
    const values = fresh.map((token) => `Bearer ${token}`);
    await measure(uncached, values.slice(0, 50)); // warm-up: key import, JIT
    rows.push([`Bearer ${alg}`, 'miss (signature check)', await measure(cached, values.slice(50))]);
    const hit = values[0] as string;
    await measure(cached, repeat(hit, 1000));
    rows.push([`Bearer ${alg}`, 'hit', await measure(cached, repeat(hit, 20_000))]);
  }

  await measure(uncached, repeat(basicValue, 5));
  rows.push(['Basic', 'miss (scrypt N=1024)', await measure(uncached, repeat(basicValue, 100))]);
  await measure(cached, repeat(basicValue, 1000));
  rows.push(['Basic', 'hit', await measure(cached, repeat(basicValue, 20_000))]);
  const wrong = Array.from({ length: 100 }, (_, i) => basicHeader(`bob:wrong-${i}`));
  rows.push(['Basic', 'miss, wrong password', await measure(cached, wrong)]);
  rows.push(['Basic', 'hit, wrong password (failure cache)', await measure(cached, wrong)]);

  const apikeyValue = `Apikey ${apikey}`;
  await measure(cached, repeat(apikeyValue, 1000));
  rows.push(['Apikey', 'no cache (SHA-256 + lookup)', await measure(cached, repeat(apikeyValue, 20_000))]);

  process.stdout.write(`node ${process.version}\n`);
  for (const [scheme, path, micros] of rows) {
    process.stdout.write(
      `${scheme.padEnd(14)} ${path.padEnd(38)} ${micros.toFixed(2).padStart(9)} µs/call\n`,
    );
  }
}

await main();
