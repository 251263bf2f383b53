/**
 * The routing defects (mock/defects/routing/): the rules each must fail, and its probe.
 */

import { ADMIN, authorization, bearer, call, status } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const ROUTING = {
  'unknown-path-403': {
    rules: ['route.404.unknown-path'],
    // Every method on the unknown path is answered 403, not only GET.
    collateral: ['route.404.unknown-path-methods'],
    probe: async (url) => status(await call(url, 'GET', '/no-such-path', { headers: bearer(ADMIN.bearer) })),
    conformant: 404,
    defective: 403,
  },
  'unknown-path-405': {
    // A GET of the unknown path stays 404 (route.404.unknown-path passes): only the other methods show it.
    rules: ['route.404.unknown-path-methods'],
    probe: async (url) =>
      status(await call(url, 'POST', '/no-such-path', { headers: bearer(ADMIN.bearer), body: '{}' })),
    conformant: 404,
    defective: 405,
  },
  'unknown-id-200-null': {
    rules: ['route.404.unknown-id'],
    // A deleted item is an unknown id too: its read after the DELETE answers 200 null, not 404 or 410.
    collateral: ['write.effect.read-back'],
    probe: async (url) => {
      const answer = await call(url, 'GET', '/users/no-such-id');
      return `${answer.status} ${answer.text.slice(0, 4)}`;
    },
    conformant: '404 {"ty',
    defective: '200 null',
  },
  'item-id-int32-500': {
    rules: ['route.item-id.boundaries'],
    // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
    collateral: ['observed.no-5xx'],
    probe: async (url) =>
      status(
        await call(url, 'GET', '/users/2147483648', {
          headers: { authorization: authorization(ADMIN, 'basic') },
        }),
      ),
    conformant: 404,
    defective: 500,
  },
  'method-404': {
    rules: ['method.405.status'],
    // 404 is none of the answers RFC 9110 has for a method a protected path refuses (405, 501, 401/403).
    collateral: ['method.other.refused'],
    probe: async (url) => status(await call(url, 'DELETE', '/protected', { headers: bearer(ADMIN.bearer) })),
    conformant: 405,
    defective: 404,
  },
  'method-no-allow': {
    rules: ['observed.405.allow', 'method.405.allow'],
    probe: async (url) =>
      (await call(url, 'DELETE', '/protected', { headers: bearer(ADMIN.bearer) })).header('allow') ??
      '(none)',
    conformant: 'GET, HEAD, OPTIONS',
    defective: '(none)',
  },
  'allow-lists-all-methods': {
    rules: ['method.405.allow-excludes'],
    collateral: ['observed.405.allow', 'method.405.allow-complete'],
    probe: async (url) =>
      (await call(url, 'DELETE', '/protected', { headers: bearer(ADMIN.bearer) })).header('allow'),
    conformant: 'GET, HEAD, OPTIONS',
    defective: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  },
  'allow-omits-method': {
    rules: ['method.405.allow-complete'],
    probe: async (url) =>
      (await call(url, 'DELETE', '/users', { headers: bearer(ADMIN.bearer) })).header('allow'),
    conformant: 'GET, POST, HEAD, OPTIONS',
    defective: 'GET, HEAD, OPTIONS',
  },
  'head-405': {
    rules: ['method.head'],
    // HEAD refused with 405 where the GET gets 401: not "identical to GET" (RFC 9110 §9.3.2) either.
    collateral: ['method.head.refused'],
    probe: async (url) => status(await call(url, 'HEAD', '/users')),
    conformant: 200,
    defective: 405,
  },
  'unknown-method-served': {
    rules: ['method.other.refused'],
    probe: async (url) => status(await call(url, 'PROPFIND', '/admin')),
    conformant: 405,
    defective: 200,
  },
  'trailing-slash-bypass': {
    rules: ['path.spelling.refused'],
    probe: async (url) => status(await call(url, 'GET', '/admin/')),
    conformant: 404,
    defective: 200,
  },
} satisfies Expectations;
