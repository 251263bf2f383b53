/**
 * observed.no-5xx (specs/rules/observed-server-error.ts): the judge of every 5xx the run receives, and what the
 * profile declares (specs/observe/declared-5xx.ts) — the fault trigger with its headers, a 503 limiter, 501 to a
 * method the profile declares for no path.
 */
import { expect, test } from '@playwright/test';
import { no5xxJudge, observerContext, type Seen } from '../../specs/observe/judges.ts';
import type { Profile } from '../../specs/profile/types.ts';
import type { Exchange } from '../../specs/wire/http.ts';

const profile: Profile = {
  name: 't',
  endpoints: {
    protected: { path: '/protected', method: 'GET', schemes: ['bearer', 'basic'] },
    collection: { path: '/users', writeSchemes: ['bearer'] },
  },
  identities: {},
  fault: { path: '/protected', method: 'GET', headers: { 'X-Fault': '500' } },
};

function seen(over: Partial<Seen>, headerLines: [string, string][] = []): Seen {
  const base: Seen = {
    method: 'GET',
    url: 'http://127.0.0.1:1/protected',
    authorization: [],
    status: 500,
    headers: {},
    body: '',
    ...over,
  };
  const exchange = {
    request: { method: base.method, url: base.url, headerLines },
    status: base.status,
    headers: {},
    headerLines: [],
    body: '',
    ms: 0,
  } as Exchange;
  return { ...base, exchange };
}

test('a 5xx is a fault unless it answers the fault trigger with its headers; an answer below 500 is judged fine', () => {
  const context = observerContext(profile);
  // Every answer is of the judge's kind: a run that provoked no 5xx passes the rule, never skips it.
  expect(no5xxJudge.judge(seen({ status: 404 }), context)).toBeNull();
  expect(no5xxJudge.judge(seen({}), context)).toMatchObject({ actual: '500 to GET /protected' });
  expect(no5xxJudge.judge(seen({}, [['x-fault', '500']]), context)).toBeNull();
  // The trigger's path without its header, or its header on another path, is no trigger.
  expect(
    no5xxJudge.judge(seen({ url: 'http://127.0.0.1:1/users' }, [['X-Fault', '500']]), context),
  ).not.toBeNull();
  // A fuzz case carries no exchange: never the trigger.
  const { exchange: _none, ...fuzz } = seen({});
  expect(no5xxJudge.judge(fuzz, context)).not.toBeNull();
  expect(no5xxJudge.judge(seen({ status: 502 }), context)).not.toBeNull();
});

test('501 is allowed to a method the profile declares for no path (RFC 9110 §9.1), 503 to a declared 503 limiter', () => {
  const context = observerContext(profile);
  expect(no5xxJudge.judge(seen({ method: 'PROPFIND', status: 501 }), context)).toBeNull();
  // Method names are case-sensitive: "get" is not GET.
  expect(no5xxJudge.judge(seen({ method: 'get', status: 501 }), context)).toBeNull();
  expect(no5xxJudge.judge(seen({ method: 'POST', status: 501 }), context)).not.toBeNull();
  expect(no5xxJudge.judge(seen({ method: 'HEAD', status: 501 }), context)).not.toBeNull();
  expect(no5xxJudge.judge(seen({ status: 503 }), context)).not.toBeNull();
  const limited = observerContext({ ...profile, rateLimit: { limit: 5, windowSeconds: 1, status: 503 } });
  expect(no5xxJudge.judge(seen({ status: 503 }), limited)).toBeNull();
});
