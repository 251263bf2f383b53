/**
 * The shared store's libraries, ioredis and rate-limiter-flexible, loaded when a shared store is first
 * configured. Loading them takes ≈ 70 ms, which a mock counting in memory (the suite's embedded one among
 * them) would otherwise pay at every start (docs/performance.md "Start-up: what is loaded only when used").
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

type IoRedis = typeof import('ioredis');
type Flexible = typeof import('rate-limiter-flexible');

let ioredis: IoRedis | undefined;
let flexible: Flexible | undefined;

export function ioredisLibrary(): IoRedis {
  ioredis ??= load('ioredis') as IoRedis;
  return ioredis;
}

export function rateLimiterFlexible(): Flexible {
  flexible ??= load('rate-limiter-flexible') as Flexible;
  return flexible;
}
