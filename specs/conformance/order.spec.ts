/**
 * INFO: which check wins when several fail at once. The other rules never depend on this (each sends
 * a request where only one condition fails); this one only reports what the target does.
 */
import { forRule, test } from '../kit/fixtures.ts';
import { lacks } from '../kit/kit.ts';
import { orderOfChecks } from '../rules/order.ts';

/** What each status says about which check ran first. */
const MEANING: Readonly<Record<number, string>> = {
  400: 'credential syntax',
  401: 'credentials',
  403: 'authorization (or a block list)',
  404: 'route',
  405: 'method',
};

test(
  'conflicting conditions (unknown path or method without or with bad credentials) → report which status wins',
  forRule(orderOfChecks),
  async ({ kit }, testInfo) => {
    const missing = kit.endpoint('missing');
    const mna = kit.endpoint('methodNotAllowed');
    if (!missing && !mna)
      lacks('endpoints.missing', 'no unknown path or unsupported method to combine with other failures');
    const probes: {
      label: string;
      method: string;
      path: string;
      authorization?: string;
      candidates: number[];
    }[] = [];
    if (missing) {
      const path = { method: missing.method ?? 'GET', path: missing.path };
      probes.push({ label: 'unknown path without credentials', ...path, candidates: [404, 401] });
      probes.push({
        label: 'unknown path with a malformed credential',
        ...path,
        authorization: kit.credentials.raw('bearer', 'a b'),
        candidates: [404, 400, 401],
      });
    }
    if (mna?.method) {
      const path = { method: mna.method, path: mna.path };
      probes.push({ label: 'unsupported method without credentials', ...path, candidates: [405, 401] });
      probes.push({
        label: 'unsupported method with a malformed credential',
        ...path,
        authorization: kit.credentials.raw('bearer', 'a b'),
        candidates: [405, 400, 401],
      });
    }
    const seen: { probe: string; status: number; first: string }[] = [];
    for (const p of probes) {
      const ex = await kit.send(p, p.authorization);
      const first = MEANING[ex.status] ?? `status ${ex.status}`;
      seen.push({ probe: p.label, status: ex.status, first });
      kit.observe(`${p.label} → ${ex.status} (${first} checked first among ${p.candidates.join('/')})`);
    }
    await testInfo.attach('order-of-checks.json', {
      body: JSON.stringify(seen, null, 2),
      contentType: 'application/json',
    });
  },
);
