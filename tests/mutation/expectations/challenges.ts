/**
 * The challenges defects (mock/defects/challenges/): the rules each must fail, and its probe.
 */

import { bearer, call, firstChallenge, mint, USER, USER_CLAIMS } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const CHALLENGES = {
  'no-www-authenticate': {
    rules: ['auth.401.challenge', 'fuzz.401.challenge'],
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate').length,
    conformant: 2,
    defective: 0,
  },
  'single-challenge': {
    rules: ['auth.401.challenge-per-scheme'],
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate').length,
    conformant: 2,
    defective: 1,
  },
  'realm-unquoted': {
    rules: ['auth.challenge.realm-quoted'],
    probe: async (url) => firstChallenge(await call(url, 'GET', '/protected')),
    conformant: 'Bearer realm="gatecheck"',
    defective: 'Bearer realm=gatecheck',
  },
  'basic-challenge-bare': {
    rules: ['basic.challenge.realm'],
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate')[1],
    conformant: 'Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic',
  },
  'basic-charset-latin1': {
    rules: ['basic.challenge.charset'],
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate')[1],
    conformant: 'Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic realm="gatecheck", charset="ISO-8859-1"',
  },
  'bearer-error-on-missing': {
    rules: ['bearer.challenge.missing-no-error'],
    probe: async (url) => firstChallenge(await call(url, 'GET', '/protected')).includes('error='),
    conformant: false,
    defective: true,
  },
  'bearer-no-error-code': {
    rules: ['bearer.challenge.invalid-token'],
    probe: async (url) =>
      firstChallenge(
        await call(url, 'GET', '/protected', { headers: bearer(`${await mint(USER_CLAIMS)}x`) }),
      ).includes('error="invalid_token"'),
    conformant: true,
    defective: false,
  },
  'bearer-error-wrong-status': {
    rules: ['bearer.error.code-status', 'fuzz.bearer.error-code'],
    probe: async (url) => {
      const answer = await call(url, 'GET', '/protected', { headers: { authorization: 'Bearer a b' } });
      return `${answer.status} ${/error="([^"]*)"/.exec(firstChallenge(answer))?.[1]}`;
    },
    conformant: '400 invalid_request',
    defective: '400 invalid_token',
  },
  'insufficient-scope-no-challenge': {
    rules: ['bearer.403.insufficient-scope'],
    probe: async (url) =>
      (await call(url, 'GET', '/admin', { headers: bearer(USER.bearer) })).all('www-authenticate').length,
    conformant: 1,
    defective: 0,
  },
} satisfies Expectations;
