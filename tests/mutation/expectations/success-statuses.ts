/**
 * The success statuses defects (mock/defects/success-statuses/): the rules each must fail, and its probe.
 */

import { ADMIN, bearer, call, status } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const SUCCESS_STATUSES = {
  'post-201': {
    rules: ['success.200.post'],
    probe: async (url) =>
      status(
        await call(url, 'POST', '/users', {
          headers: { ...bearer(ADMIN.bearer), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Probe' }),
        }),
      ),
    conformant: 200,
    defective: 201,
  },
  'put-204': {
    rules: ['success.200.put'],
    probe: async (url) =>
      status(
        await call(url, 'PUT', '/users/1', {
          headers: { ...bearer(ADMIN.bearer), 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Alice Admin', role: 'admin' }),
        }),
      ),
    conformant: 200,
    defective: 204,
  },
  'delete-204': {
    rules: ['success.200.delete'],
    probe: async (url) => status(await call(url, 'DELETE', '/users/4', { headers: bearer(ADMIN.bearer) })),
    conformant: 200,
    defective: 204,
  },
  'writes-no-effect': {
    rules: ['write.effect.read-back'],
    // Their PUT and DELETE act on an item they create first: nothing was stored, so those answer 404.
    collateral: ['success.200.put', 'success.200.delete'],
    // A created item read back: 404 when nothing was stored.
    probe: async (url) => {
      const created = await call(url, 'POST', '/users', {
        headers: { ...bearer(ADMIN.bearer), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Probe' }),
      });
      const { id } = JSON.parse(created.text) as { id: string };
      return `${created.status} ${status(await call(url, 'GET', `/users/${id}`, { headers: bearer(ADMIN.bearer) }))}`;
    },
    conformant: '200 200',
    defective: '200 404',
  },
} satisfies Expectations;
