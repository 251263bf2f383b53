import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'no-rate-limit',
  layer: 'rate limiting',
  bug: 'Never rate-limits: a client may send any number of requests.',
  seenIn: 'A limiter configured but never mounted, or disabled "temporarily".',
  needs: ['rateLimit'],
  hooks: {
    // A limiter configured but never switched on: every client may send any number of requests.
    settings: (config) => ({ ...config, rateLimit: { ...config.rateLimit, enabled: false } }),
  },
});
