/**
 * The request body defects (mock/defects/request-bodies/): the rules each must fail, and its probe.
 */

import { ADMIN, authorization, call, status } from './probe-support.ts';
import type { Expectations } from './types.ts';

/** The admin's Basic POST /users with `body` as `contentType`. */
const post = async (url: string, body: string, contentType = 'application/json'): Promise<number> =>
  status(
    await call(url, 'POST', '/users', {
      headers: { authorization: authorization(ADMIN, 'basic'), 'content-type': contentType },
      body,
    }),
  );

export const REQUEST_BODIES = {
  'bad-json-500': {
    rules: ['request.400.body-not-json'],
    // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
    collateral: ['observed.no-5xx'],
    probe: (url) => post(url, '{"name": '),
    conformant: 400,
    defective: 500,
  },
  'body-any-json-value': {
    rules: ['request.400.body-wrong-type'],
    probe: (url) => post(url, '42'),
    conformant: 400,
    defective: 200,
  },
  'content-type-ignored': {
    rules: ['request.400.content-type-mismatch'],
    probe: (url) => post(url, '{"name": "Gatecheck Probe"}', 'text/plain'),
    conformant: 415,
    defective: 200,
  },
  'oversized-body-500': {
    rules: ['request.400.oversized-body'],
    // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
    collateral: ['observed.no-5xx'],
    // One byte over the mock's default maxBodyBytes (102400), declared by Content-Length.
    probe: (url) => post(url, `{"pad":"${'x'.repeat(102_400 - 9)}"}`),
    conformant: 413,
    defective: 500,
  },
  'array-item-500': {
    rules: ['request.json-value.no-5xx'],
    // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
    collateral: ['observed.no-5xx'],
    probe: (url) => post(url, '[{"name": "Gatecheck Probe"}]'),
    conformant: 400,
    defective: 500,
  },
  'deep-json-500': {
    rules: ['request.json-value.no-5xx'],
    // Every 5xx the run receives is observed.no-5xx's too (specs/rules/observed-server-error.ts).
    collateral: ['observed.no-5xx'],
    // 20,000 levels: 40 KB, under the mock's 100 KiB limit, past its parser's stack.
    probe: (url) =>
      post(url, `{"name":"Gatecheck Probe","gatecheckNested":${'['.repeat(20000)}${']'.repeat(20000)}}`),
    conformant: 400,
    defective: 500,
  },
  'proto-key-dropped': {
    rules: ['request.json-value.stored'],
    probe: async (url) => {
      const answer = await call(url, 'POST', '/users', {
        headers: { authorization: authorization(ADMIN, 'basic'), 'content-type': 'application/json' },
        body: '{"name":"Gatecheck Probe","__proto__":{"gatecheck":true}}',
      });
      return `${answer.status} ${Object.hasOwn(answer.json(), '__proto__') ? 'kept' : 'dropped'}`;
    },
    conformant: '200 kept',
    defective: '200 dropped',
  },
  'stack-trace-in-400': {
    // The status stays right (400): only the observer, at RFC 9457 §5's level (SHOULD), judges the stack.
    rules: ['observed.no-stack'],
    probe: async (url) =>
      /\n\s+at .+:\d+:\d+/.test(
        (
          await call(url, 'POST', '/users', {
            headers: { authorization: authorization(ADMIN, 'basic'), 'content-type': 'application/json' },
            body: '{"name": ',
          })
        ).text,
      ),
    conformant: false,
    defective: true,
  },
} satisfies Expectations;
