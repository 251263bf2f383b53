/**
 * The shared store's libraries, ioredis and rate-limiter-flexible, loaded when a shared store is first
 * configured. Loading them takes ≈ 70 ms, which a mock counting in memory (the suite's embedded one among
 * them) would otherwise pay at every start (docs/performance.md "Start-up: what is loaded only when used").
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

type IoRedis = typeof import('ioredis');
type Flexible = typeof import('rate-limiter-flexible');

// Node's module cache keeps each once loaded; each is asked for once per store (rate-limit-redis.ts,
// rate-limit-shared.ts), never per request.
export const ioredisLibrary = (): IoRedis => load('ioredis') as IoRedis;
export const rateLimiterFlexible = (): Flexible => load('rate-limiter-flexible') as Flexible;
