/**
 * The errors defects (mock/defects/errors/): the rules each must fail, and its probe.
 */

import { ADMIN, bearer, call, status } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const ERRORS = {
  'public-authorization-500': {
    rules: ['fuzz.public.junk-authorization'],
    // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
    collateral: ['observed.no-5xx'],
    probe: async (url) =>
      status(await call(url, 'GET', '/users', { headers: { authorization: 'Bearer a b' } })),
    conformant: 200,
    defective: 500,
  },
  'problem-status-string': {
    rules: ['observed.problem.status', 'problem.status-matches'],
    probe: async (url) => typeof (await call(url, 'GET', '/protected')).json().status,
    conformant: 'number',
    defective: 'string',
  },
  'errors-as-200': {
    rules: ['server.500.fault'],
    collateral: ['observed.problem.status'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: { ...bearer(ADMIN.bearer), 'x-gatecheck-fault': '500' },
        }),
      ),
    conformant: 500,
    defective: 200,
  },
  'stack-trace-in-500': {
    rules: ['observed.no-stack', 'server.500.no-stack'],
    probe: async (url) =>
      /\n\s+at .+:\d+:\d+/.test(
        (
          await call(url, 'GET', '/protected', {
            headers: { ...bearer(ADMIN.bearer), 'x-gatecheck-fault': '500' },
          })
        ).text,
      ),
    conformant: false,
    defective: true,
  },
  'credential-in-detail': {
    rules: ['observed.no-credential-echo'],
    probe: async (url) => {
      const answer = await call(url, 'GET', '/protected', {
        headers: { authorization: 'Bearer not-a-valid-token' },
      });
      return answer.text.includes('not-a-valid-token');
    },
    conformant: false,
    defective: true,
  },
} satisfies Expectations;
