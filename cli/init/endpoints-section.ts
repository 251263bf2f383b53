/**
 * The endpoints a QA engineer would pick from the document's operations (picks.ts), written into the profile
 * with their reasons and the inputs they require: public, protected, admin, missing, and the 405 check's.
 */
import { inputsOf, type Operation } from './operations.ts';
import { openAdmin, type Pick, pickAdmin, pickProtected, pickPublic, unusableAdmin } from './picks.ts';
import { EXAMPLES, examples, line, plural, schemesOf } from './todo-text.ts';

type Json = Record<string, unknown>;

const MISSING = '/gatecheck-no-such-path';

/** The to-do line for the inputs an endpoint carries, or nothing. */
function inputsTodo(field: string, op: Operation, todo: string[]): void {
  if (op.inputs.notes.length === 0) return;
  todo.push(
    `/endpoints/${field}: ${op.method.toUpperCase()} ${op.path} requires ${op.inputs.notes.join(', ')}; carried in the endpoint's query/headers and sent by every check on it — confirm the values`,
  );
}

/**
 * Picks the target's answers contradicted (`--probe`, probe-picks.ts): per role, `GET /address` → the answer
 * that decided, quoted. A refuted operation is no candidate for that role; the next one is taken.
 */
export type Refuted = Readonly<
  Partial<Record<'public' | 'protected' | 'admin', ReadonlyMap<string, string>>>
>;

/** The key a refutation names an operation by: its method and the path sent. */
export const probedKey = (o: Operation) => `${o.method.toUpperCase()} ${o.address ?? o.path}`;

/** Step 3: the public, protected, admin and missing endpoints, each with its reason. */
export function readEndpoints(
  ops: readonly Operation[],
  rateLimited: ReadonlySet<string>,
  prefix: string,
  endpoints: Json,
  todo: string[],
  refuted: Refuted = {},
): { pub: Pick | undefined; prot: Pick | undefined; admin: Pick | undefined } {
  // What the target's answers decided, said on the role's line (issue #69: "the to-do says which answer decided").
  const probed = (field: 'public' | 'protected' | 'admin') => {
    const list = [...(refuted[field]?.entries() ?? [])];
    return list.length === 0
      ? ''
      : `; --probe passed over ${list.map(([key, answer]) => `${key} (${answer})`).join(', ')}`;
  };
  const unrefuted = (field: 'public' | 'protected' | 'admin') =>
    ops.filter((o) => !refuted[field]?.has(probedKey(o)));
  const mark = (field: 'public' | 'protected' | 'admin', pick: Pick, extra = '') =>
    todo.push(
      `/endpoints/${field}: ${pick.op.method.toUpperCase()} ${pick.op.address} — ${pick.reason}${probed(field)}${extra}`,
    );

  const pub = pickPublic(unrefuted('public'), rateLimited);
  if (pub) {
    endpoints.public = { path: pub.op.address, method: pub.op.method.toUpperCase(), ...inputsOf(pub.op) };
    mark('public', pub, '; it must answer 200 without credentials');
    inputsTodo('public', pub.op, todo);
  } else
    todo.push(
      `/endpoints/public: the document has no public read init can send as it is${probed('public')}; add one if the target has it`,
    );

  const prot = pickProtected(unrefuted('protected'), rateLimited);
  if (prot) {
    endpoints.protected = {
      path: prot.op.address,
      method: prot.op.method.toUpperCase(),
      schemes: schemesOf(prot.op),
      ...inputsOf(prot.op),
    };
    mark('protected', prot, '; both the admin and the user identity must be allowed it');
    inputsTodo('protected', prot.op, todo);
  } else {
    const guardedGets = ops.filter(
      (o) => !o.access.public && o.access.schemes.length > 0 && o.method === 'get',
    );
    const waiting = guardedGets.filter((o) => o.unfilled.length > 0);
    const needing = guardedGets.filter((o) => o.unfilled.length === 0 && o.requiredExtras.length > 0);
    todo.push(
      `/endpoints/protected: no read that needs credentials can be sent as the document describes it${probed('protected')}${waiting.length ? `; ${plural(waiting.length, 'GET')} wait for path parameters the document gives no value for (${examples(waiting)}: ${[...new Set(waiting.flatMap((o) => o.unfilled))].slice(0, 5).join(', ')})` : ''}${needing.length ? `; ${plural(needing.length, 'GET')} require parameters the document gives no value for (${examples(needing)}: ${[...new Set(needing.flatMap((o) => o.requiredExtras))].slice(0, 5).join(', ')})` : ''}`,
    );
  }
  for (const p of [pub, prot])
    if (p?.op.filled.length)
      todo.push(
        `${p.op.method.toUpperCase()} ${p.op.path}: path parameters ${p.op.filled.join(', ')}; confirm the item exists`,
      );

  const { pick: admin, runnerUp } = pickAdmin(unrefuted('admin'), prot?.op, rateLimited);
  if (admin) {
    endpoints.admin = {
      path: admin.op.address,
      method: admin.op.method.toUpperCase(),
      schemes: schemesOf(admin.op),
      ...inputsOf(admin.op),
    };
    mark(
      'admin',
      admin,
      `; runner-up: ${runnerUp ? `${runnerUp.op.method.toUpperCase()} ${runnerUp.op.address} (${runnerUp.reason})` : 'none'}; confirm the user identity gets 403 there`,
    );
    inputsTodo('admin', admin.op, todo);
  }
  // Marked as an administrator's and stating no security requirement: said, never hidden behind "no read".
  const open = openAdmin(ops);
  const openText = `${plural(open.length, 'operation')} the document marks as an administrator’s ${open.length === 1 ? 'states' : 'state'} no security requirement (${examples(open)}) — by OpenAPI anyone may call them, so the profile claims none of them: confirm the target protects them`;
  const unusable = unusableAdmin(ops, admin?.op, rateLimited);
  const unusableText = unusable
    .slice(0, EXAMPLES)
    .map((u) => `${line(u.op)} (${u.why})`)
    .join('; ');
  if (!admin && refuted.admin !== undefined && refuted.admin.size > 0)
    todo.push(
      `/endpoints/admin: no admin read the target's answers confirm${probed('admin')}; add one the target has`,
    );
  else if (!admin)
    todo.push(
      unusable.length === 0 && open.length === 0
        ? '/endpoints/admin: no read the document marks as an administrator’s (path, tag, description, x- marker, scope or role); add one if the target has it'
        : unusable.length === 0
          ? `/endpoints/admin: no admin read: ${openText}; add an admin read the target has`
          : `/endpoints/admin: the document marks ${plural(unusable.length, 'operation')} as an administrator’s, none usable as the admin read: ${unusableText}${unusable.length > EXAMPLES ? `; … ${unusable.length - EXAMPLES} more` : ''}; add one the target has`,
    );
  if (open.length > 0 && (admin || unusable.length > 0)) todo.push(`/endpoints/admin: ${openText}`);
  else if (unusable.some((u) => u.why.includes('applies only with query')))
    todo.push(
      `/endpoints/admin: left out for query-dependent admin wording — ${unusable
        .filter((u) => u.why.includes('applies only with query'))
        .slice(0, EXAMPLES)
        .map((u) => `${line(u.op)} (${u.why})`)
        .join('; ')}`,
    );

  endpoints.missing = { path: `${prefix}${MISSING}` };
  return { pub, prot, admin };
}

/** Step 5: 405 — a method the document does not define on the protected path (RFC 9110 §15.5.6). */
export function methodNotAllowed(
  prot: Pick | undefined,
  operations: readonly Operation[],
  endpoints: Json,
  todo: string[],
): void {
  if (!prot) return;
  const defined = new Set(operations.filter((o) => o.path === prot.op.path).map((o) => o.method));
  const absent = (['delete', 'put', 'patch', 'post', 'get'] as const).find((m) => !defined.has(m));
  if (!absent) return;
  endpoints.methodNotAllowed = {
    path: prot.op.address,
    method: absent.toUpperCase(),
    schemes: schemesOf(prot.op),
  };
  todo.push(
    `/endpoints/methodNotAllowed: the document defines no ${absent.toUpperCase()} ${prot.op.path}; confirm the target answers 405`,
  );
}
