/**
 * The challenges defects (mock/defects/challenges/): the rules each must fail, and its probe.
 */

import { bearer, call, firstChallenge, mint, USER, USER_CLAIMS } from './probe-support.ts';
import type { Expectations } from './types.ts';

export const CHALLENGES = {
  'no-www-authenticate': {
    rules: ['auth.401.challenge', 'fuzz.401.challenge'],
    collateral: ['observed.401.challenge'],
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
    collateral: ['observed.401.challenge'],
    probe: async (url) => firstChallenge(await call(url, 'GET', '/protected')),
    conformant: 'Bearer realm="gatecheck"',
    defective: 'Bearer realm=gatecheck',
  },
  'basic-challenge-bare': {
    rules: ['basic.challenge.realm'],
    collateral: ['observed.401.challenge'],
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate')[1],
    conformant: 'Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic',
  },
  'basic-charset-latin1': {
    rules: ['basic.challenge.charset'],
    collateral: ['observed.401.challenge'],
    probe: async (url) => (await call(url, 'GET', '/protected')).all('www-authenticate')[1],
    conformant: 'Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic realm="gatecheck", charset="ISO-8859-1"',
  },
  'bearer-error-on-missing': {
    rules: ['bearer.challenge.missing-no-error'],
    collateral: ['observed.bearer.error-code'],
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
    rules: ['observed.bearer.error-code', 'bearer.error.code-status', 'fuzz.bearer.error-code'],
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
  'basic-challenge-bare-on-failure': {
    rules: ['observed.401.challenge'],
    probe: async (url) => {
      const wrong = `Basic ${Buffer.from('alice:not-her-password').toString('base64')}`;
      const missing = (await call(url, 'GET', '/protected')).all('www-authenticate')[1];
      const failed = (await call(url, 'GET', '/protected', { headers: { authorization: wrong } })).all(
        'www-authenticate',
      )[1];
      return `${missing} | ${failed}`;
    },
    conformant: 'Basic realm="gatecheck", charset="UTF-8" | Basic realm="gatecheck", charset="UTF-8"',
    defective: 'Basic realm="gatecheck", charset="UTF-8" | Basic',
  },
} satisfies Expectations;
