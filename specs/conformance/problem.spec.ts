/**
 * problem+json bodies, when the target uses them: a JSON object whose "status" equals the HTTP status
 * (RFC 9457 §3.1.2). Judged on one answer of each error status the suite can provoke with certainty.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, unmet } from '../kit/kit.ts';
import { problemStatus } from '../rules/problem.ts';
import { expectRule } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** One request per error status the profile lets the suite provoke. */
async function errors(kit: Kit): Promise<Exchange[]> {
  const out: Exchange[] = [];
  const prot = kit.endpoint('protected');
  if (prot) {
    const req = { method: prot.method ?? 'GET', path: prot.path };
    out.push(await kit.send(req)); // 401
    if (prot.schemes?.includes('bearer'))
      out.push(await kit.send(req, kit.credentials.raw('bearer', 'abc def'))); // 400 or 401
  }
  const admin = kit.endpoint('admin');
  if (admin?.schemes?.length) {
    for (const scheme of admin.schemes) {
      const user = await kit.authorization('user', scheme);
      if (user) {
        out.push(await kit.send({ method: admin.method ?? 'GET', path: admin.path }, user)); // 403
        break;
      }
    }
  }
  const missing = kit.endpoint('missing');
  if (missing)
    out.push(
      await kit.send(
        { method: missing.method ?? 'GET', path: missing.path },
        await kit.adminAuthorizationFor(prot),
      ),
    ); // 404
  const mna = kit.endpoint('methodNotAllowed');
  if (mna?.method)
    out.push(await kit.send({ method: mna.method, path: mna.path }, await kit.adminAuthorizationFor(mna))); // 405
  return out.filter((ex) => ex.status >= 400);
}

const PROBLEM = /^application\/problem\+json\s*(;|$)/i;

test(
  'error answers with Content-Type application/problem+json → a JSON object whose "status" equals the HTTP status',
  forRule(problemStatus),
  async ({ kit }) => {
    const problems = (await errors(kit)).filter((ex) => PROBLEM.test(ex.headers['content-type'] ?? ''));
    if (problems.length === 0) unmet('the target answered no error with application/problem+json');
    for (const ex of problems) {
      let body: unknown;
      try {
        body = JSON.parse(ex.body);
      } catch {
        body = undefined;
      }
      const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
      if (!isObject) {
        expectRule(
          false,
          problemStatus,
          ex,
          'a JSON object (RFC 9457 §3)',
          `a body that is not a JSON object: ${ex.body.slice(0, 80)}`,
        );
        continue;
      }
      const status = (body as { status?: unknown }).status;
      expectRule(
        status === undefined || status === ex.status,
        problemStatus,
        ex,
        `"status": ${ex.status} (or no status member)`,
        `"status": ${JSON.stringify(status)} on a ${ex.status}`,
      );
    }
  },
);
