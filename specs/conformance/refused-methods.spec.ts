/**
 * Every method of a protected path is refused like its GET (seed §5 rules 1–2, §7 403; RFC 9110 §9): HEAD is
 * authenticated exactly as GET (§9.3.2), and any other method — OPTIONS, one the path does not support, an
 * extension method, an unregistered one, a lower-case "get" — sent without credentials or as an identity the
 * path refuses, never gets the resource. A bypass lives where an authentication check was written for GET.
 */
import { forRule, test } from '../kit/fixtures.ts';
import {
  guardedReadsOrSkip,
  type Refused,
  refusalOptions,
  refusedCredentials,
  resourceOf,
} from '../kit/guarded.ts';
import type { Kit } from '../kit/kit.ts';
import { requestCarried, resourceIn } from '../lib/resource-fingerprint.ts';
import { pathOf, supportedMethods } from '../profile/methods.ts';
import { headRefused, otherMethodsRefused } from '../rules/refusal.ts';
import { expectRule, statusList } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

function send(kit: Kit, method: string, path: string, who: Refused, exactMethod = false): Promise<Exchange> {
  return kit.target.send(
    {
      method,
      exactMethod,
      path,
      headers: who.authorization === undefined ? {} : { Authorization: who.authorization },
    },
    refusalOptions(who),
  );
}

test(
  'HEAD on each protected path without credentials, and as an identity the path refuses → the status the GET gets (401, 403)',
  forRule(headRefused),
  async ({ kit }) => {
    for (const read of guardedReadsOrSkip(kit)) {
      for (const who of await refusedCredentials(kit, read)) {
        const get = await send(kit, 'GET', read.path, who);
        // Only a refused GET says how HEAD must be refused; a GET that succeeds is another rule's failure.
        if (get.status !== 401 && get.status !== 403) continue;
        const head = await send(kit, 'HEAD', read.path, who);
        expectRule(
          head.status === get.status,
          headRefused,
          head,
          `status ${get.status}, as the GET with ${who.label} on ${read.path} (RFC 9110 §9.3.2)`,
          `status ${head.status}`,
        );
      }
    }
  },
);

/**
 * RFC 9110 §9.3: the methods a path may not support. TRACE and CONNECT are left out: TRACE echoes the request
 * (credentials included, which RFC 9110 §9.3.8 tells clients never to send in one), CONNECT asks for a tunnel.
 */
const STANDARD = ['POST', 'PUT', 'PATCH', 'DELETE'];
/**
 * PROPFIND (RFC 4918 §9.1, registered), one no registry knows, and GET in lower case — method names are
 * case-sensitive (RFC 9110 §9.1), so "get" is not GET, and a server that folds the case must authenticate it.
 */
const UNKNOWN = [
  { method: 'PROPFIND', exact: false },
  { method: 'GATECHECK', exact: false },
  { method: 'get', exact: true },
];

/** RFC 9110 §15.5.1, §15.5.2, §15.5.4, §15.5.6, §15.6.2. */
const REFUSALS = [400, 401, 403, 405, 501];

test(
  'OPTIONS, each unsupported method, PROPFIND, an unregistered method and "get" on each protected path, without credentials and as a refused identity → 400, 401, 403, 405 or 501 (OPTIONS: 2xx without the resource), never the resource',
  forRule(otherMethodsRefused),
  async ({ kit }) => {
    const supported = supportedMethods(kit.profile);
    for (const read of guardedReadsOrSkip(kit)) {
      const own = supported.get(pathOf(read.path))?.methods ?? new Set(['GET']);
      const methods = [
        { method: 'OPTIONS', exact: false },
        ...STANDARD.filter((m) => !own.has(m)).map((method) => ({ method, exact: false })),
        ...UNKNOWN,
      ];
      const resource = await resourceOf(kit, read);
      for (const who of await refusedCredentials(kit, read)) {
        for (const { method, exact } of methods) {
          const ex = await send(kit, method, read.path, who, exact);
          const carried =
            resource === undefined ? undefined : resourceIn(ex.body, resource, requestCarried(ex.request));
          const success = ex.status >= 200 && ex.status < 300;
          // RFC 9110 §9.3.7: OPTIONS may succeed, describing the resource's options, not handing it over.
          const allowed =
            method === 'OPTIONS' && success ? carried === undefined : REFUSALS.includes(ex.status);
          expectRule(
            allowed && carried === undefined,
            otherMethodsRefused,
            ex,
            `${method === 'OPTIONS' ? 'a 2xx without the resource, or ' : ''}${statusList(REFUSALS)} to ${method} ${read.path} with ${who.label}`,
            `status ${ex.status}${carried ? `, the body carrying ${carried}` : ''}`,
          );
        }
      }
    }
  },
);
