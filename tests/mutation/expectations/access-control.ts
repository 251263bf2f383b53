/**
 * The access control defects (mock/defects/access-control/): the rules each must fail, and its probe. The
 * blocked clients are the mock's defaults (mock/access/settings.ts), as the bundled profile declares them.
 */

import { call, status, USER } from './probe-support.ts';
import type { Expectations } from './types.ts';

/** The user's Bearer GET /protected as the client `headers` describe. */
const asClient = async (url: string, headers: Record<string, string>): Promise<number> =>
  status(
    await call(url, 'GET', '/protected', { headers: { authorization: `Bearer ${USER.bearer}`, ...headers } }),
  );

export const ACCESS_CONTROL = {
  'block-lists-ignored': {
    rules: ['access.403.blocked-client'],
    probe: (url) => asClient(url, { 'cf-ipcountry': 'ZZ' }),
    conformant: 403,
    defective: 200,
  },
  'cidr-prefix-one-digit': {
    rules: ['access.403.unblocked-served'],
    probe: (url) => asClient(url, { 'x-forwarded-for': '198.51.100.10' }),
    conformant: 200,
    defective: 403,
  },
  'closed-route-open': {
    rules: ['access.403.closed-path'],
    probe: async (url) => status(await call(url, 'GET', '/archive')),
    conformant: 403,
    defective: 200,
  },
} satisfies Expectations;
