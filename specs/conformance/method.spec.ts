/**
 * 405 with Allow for a known path and an unsupported method (seed §7; RFC 9110 §15.5.6, §10.2.1),
 * sent with valid admin credentials so the answer does not depend on the target's order of checks.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, need, unmet } from '../kit/kit.ts';
import { parseAllow, supportedMethods } from '../profile/methods.ts';
import {
  methodAllow,
  methodAllowComplete,
  methodAllowExcludes,
  methodHead,
  methodStatus,
} from '../rules/method.ts';
import { expectHeader, expectRule, expectStatus } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

async function unsupported(kit: Kit): Promise<{ method: string; ex: Exchange }> {
  const endpoint = need(
    kit.endpoint('methodNotAllowed'),
    'endpoints.methodNotAllowed',
    'no known path with a method it does not support',
  );
  const method = need(
    endpoint.method,
    'endpoints.methodNotAllowed.method',
    'which method the path does not support',
  );
  const authorization = await kit.adminAuthorizationFor(endpoint);
  const ex = await kit.send({ method, path: endpoint.path }, authorization);
  return { method: method.toUpperCase(), ex };
}

/** RFC 9110 §10.2.1: Allow = #method; method = token. */
function allowList(value: string): string[] {
  return value
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
}

test(
  'known path with an unsupported method and valid admin credentials → 405',
  forRule(methodStatus),
  async ({ kit }) => {
    const { ex } = await unsupported(kit);
    expectStatus(ex, [405], methodStatus);
  },
);

test(
  'known path with an unsupported method → the 405 carries Allow',
  forRule(methodAllow),
  async ({ kit }) => {
    const { ex } = await unsupported(kit);
    if (ex.status !== 405)
      unmet(`the request answered ${ex.status}, not 405 (see method.405.status)`, ['method.405.status']);
    expectHeader(ex, 'Allow', methodAllow, {
      test: (v) => /^\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*(,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*)*)?$/.test(v),
      expected: 'a comma-separated list of method tokens',
    });
  },
);

test(
  'known path with an unsupported method → Allow of the 405 does not list that method',
  forRule(methodAllowExcludes),
  async ({ kit }) => {
    const { method, ex } = await unsupported(kit);
    if (ex.status !== 405)
      unmet(`the request answered ${ex.status}, not 405 (see method.405.status)`, ['method.405.status']);
    const allow = ex.headers.allow;
    if (allow === undefined) unmet('the 405 carries no Allow (see method.405.allow)', ['method.405.allow']);
    // Method names are case-sensitive (RFC 9110 §9.1).
    expectRule(
      !allowList(allow).includes(method),
      methodAllowExcludes,
      ex,
      `Allow without ${method}`,
      `Allow: ${allow}`,
    );
  },
);

/** A method to refuse on a path: the first of these it does not support. */
const REFUSABLE = ['DELETE', 'PATCH', 'PUT', 'POST'];

/** RFC 9110 §15.5.6 / §15.6.2: 405 and 501 are how a server says it does not answer a method. */
const answers = (status: number) => status !== 405 && status !== 501;

test(
  'each declared path with a method it does not support → Allow lists every supported method (HEAD, OPTIONS as answered) and not the refused one',
  forRule(methodAllowComplete),
  async ({ kit }) => {
    const paths = [...supportedMethods(kit.profile).values()];
    if (paths.length === 0) need(undefined, 'endpoints', 'no declared path');
    const authorization = await kit.adminAuthorizationFor(kit.endpoint('protected'));
    let judged = 0;
    for (const { path, methods, stated } of paths) {
      const refused = REFUSABLE.find((m) => !methods.has(m));
      if (refused === undefined) continue;
      const ex = await kit.send({ method: refused, path }, authorization);
      if (ex.status !== 405) continue;
      const allow = parseAllow(ex.headers.allow ?? '');
      if (allow === undefined || ex.headers.allow === undefined) continue; // method.405.allow judges these
      judged++;
      const head = await kit.send({ method: 'HEAD', path }, authorization);
      const options = await kit.send({ method: 'OPTIONS', path });
      const required = new Set(methods);
      const refusedHere = new Set([refused]);
      (answers(head.status) ? required : refusedHere).add('HEAD');
      (answers(options.status) ? required : refusedHere).add('OPTIONS');
      const missing = [...required].filter((m) => !allow.includes(m));
      const wrong = allow.filter((m) => refusedHere.has(m) || (stated && !required.has(m)));
      expectRule(
        missing.length === 0 && wrong.length === 0,
        methodAllowComplete,
        ex,
        `Allow on ${path} listing ${[...required].join(', ')}${stated ? ' and nothing else' : ''}, not ${[...refusedHere].join(', ')}`,
        `Allow: ${ex.headers.allow}${missing.length ? ` (missing ${missing.join(', ')})` : ''}${wrong.length ? ` (listing ${wrong.join(', ')})` : ''}`,
      );
    }
    if (judged === 0)
      unmet(
        'no declared path answered an unsupported method with 405 and a parseable Allow (see method.405.status, method.405.allow)',
        ['method.405.status', 'method.405.allow'],
      );
  },
);

/**
 * Fields whose value HEAD may leave out or that differ per answer (RFC 9110 §9.3.2: "a server MAY omit
 * header fields for which a value is determined only while generating the content"; §6.6.1 Date).
 */
const HEAD_MAY_DIFFER = new Set([
  'date',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'etag',
  'last-modified',
]);

test(
  'HEAD on each GET endpoint of the profile → the status and header fields of the GET, no content',
  forRule(methodHead),
  async ({ kit }) => {
    const gets = (['public', 'protected', 'admin'] as const)
      .map((role) => kit.endpoint(role))
      .filter((e) => e !== undefined && (e.method ?? 'GET').toUpperCase() === 'GET');
    if (gets.length === 0) need(undefined, 'endpoints.public | protected | admin', 'no GET endpoint');
    for (const endpoint of gets) {
      if (!endpoint) continue;
      const authorization = endpoint.schemes?.length ? await kit.adminAuthorizationFor(endpoint) : undefined;
      const get = await kit.send({ method: 'GET', path: endpoint.path }, authorization);
      const head = await kit.send({ method: 'HEAD', path: endpoint.path }, authorization);
      const missing = Object.keys(get.headers).filter((n) => !HEAD_MAY_DIFFER.has(n) && !(n in head.headers));
      expectRule(
        head.status === get.status && head.body.length === 0 && missing.length === 0,
        methodHead,
        head,
        `status ${get.status} (as the GET), no content, the GET's fields`,
        `status ${head.status}${head.body.length ? `, ${head.body.length} bytes of content` : ''}${missing.length ? `, without ${missing.join(', ')}` : ''}`,
      );
    }
  },
);
