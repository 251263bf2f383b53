/**
 * The header parsing defects (mock/defects/header-parsing/): the rules each must fail, and its probe.
 */

import { ADMIN, authorization, call, status } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const HEADER_PARSING = {
  'scheme-case-sensitive': {
    rules: ['auth.scheme.case-insensitive', 'fuzz.credential.legal-variants'],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: `bearer ${ADMIN.bearer}` } })),
    conformant: 200,
    defective: 401,
  },
  'scheme-single-space': {
    rules: ['fuzz.credential.legal-variants', 'auth.scheme.separator-spaces'],
    // Wrong credentials spelled with two spaces get 400 instead of 401.
    collateral: ['fuzz.wrong-credential.status'],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: `Bearer  ${ADMIN.bearer}` } })),
    conformant: 200,
    defective: 400,
  },
  'scheme-prefix-slice': {
    rules: ['auth.scheme.near-miss'],
    probe: async (url) =>
      status(await call(url, 'GET', '/protected', { headers: { authorization: `Bearerx ${ADMIN.bearer}` } })),
    conformant: 401,
    defective: 200,
  },
  'duplicate-authorization-first-wins': {
    rules: ['auth.malformed.duplicate-header'],
    collateral: ['fuzz.malformed.status', 'fuzz.invalid-credential.no-2xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', {
          headers: { authorization: [authorization(ADMIN, 'bearer'), authorization(ADMIN, 'basic')] },
        }),
      ),
    conformant: 400,
    defective: 200,
  },
  'host-first-wins': {
    rules: ['request.400.host-field'],
    probe: async (url) => status(await call(url, 'GET', '/protected', { headers: { host: 'gatecheck@x' } })),
    conformant: 400,
    defective: 401,
  },
  'scheme-not-enforced': {
    rules: ['auth.401.unaccepted-scheme'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/protected', { headers: { authorization: authorization(ADMIN, 'apikey') } }),
      ),
    conformant: 401,
    defective: 200,
  },
} satisfies Expectations;
