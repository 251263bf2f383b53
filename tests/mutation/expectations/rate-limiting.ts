/**
 * The rate limiting defects (mock/defects/rate-limiting/): the rules each must fail, and its probe.
 */

import { bearer, burst, CAROL, call, LIMIT_3 } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const RATE_LIMITING = {
  'no-rate-limit': {
    rules: ['ratelimit.429.exceeded'],
    probe: async (url) => burst(url, 4),
    conformant: [200, 200, 200, 429],
    defective: [200, 200, 200, 200],
    options: LIMIT_3,
  },
  'retry-after-iso-date': {
    rules: ['observed.429.retry-after', 'ratelimit.429.retry-after'],
    collateral: ['ratelimit.429.recovery'],
    probe: async (url) => {
      await burst(url, 3);
      const value = (await call(url, 'GET', '/protected', { headers: bearer(CAROL.bearer) })).header(
        'retry-after',
      );
      return /^\d+$/.test(value ?? '')
        ? 'delay-seconds'
        : /^\d{4}-\d\d-\d\dT/.test(value ?? '')
          ? 'ISO 8601'
          : value;
    },
    conformant: 'delay-seconds',
    defective: 'ISO 8601',
    options: LIMIT_3,
  },
  'rate-limit-never-resets': {
    rules: ['ratelimit.429.recovery'],
    probe: async (url, clock) => {
      const limited = await burst(url, 4);
      clock.now += 61_000; // the next window
      return [limited[3], ...(await burst(url, 1))];
    },
    conformant: [429, 200],
    defective: [429, 429],
    options: LIMIT_3,
  },
} satisfies Expectations;
