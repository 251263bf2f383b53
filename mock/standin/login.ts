/**
 * Operations the document describes as a login — a session or token made from a user's name and password
 * (`POST /users/login` of RealWorld, `GET /user/login?username=&password=` of the Petstore): its path, summary
 * or operationId says log in / sign in / session / authenticate, and its body (or query) has a password member.
 * The mock checks the pair against its identities (the user name `gatecheck-<identity>`, or that name at
 * example.com as an e-mail address, with the identity's password, as `--print-env` prints them): a wrong pair
 * is answered with the failure the operation declares — 401 (RFC 9110 §15.5.2), else its 400, 403 or 422 —
 * a right one with the declared answer carrying that identity and, in its token members, a credential the
 * mock accepts for it (current-user.ts).
 */
import type { Operation } from '../../cli/init/operations.ts';
import { merged } from '../../cli/init/sample-item.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { StandInIdentity } from './identities.ts';

type Json = Record<string, unknown>;

export interface LoginPlan {
  readonly from: 'body' | 'query';
  /** The member (dotted, through a wrapper: `user.email`) or query parameter naming the user. */
  readonly user: string;
  readonly password: string;
  /** The status a wrong pair is answered with. */
  readonly failure: number;
}

const SAYS_LOGIN =
  /(^|[^a-z])(log-?in|sign-?in|session|sessions|authenticate|authentication|auth)([^a-z]|$)/i;
const PASSWORD = /^(password|passwd|pass|pwd)$/i;
const USER = /^(username|user_?name|login|email|e_?mail|user|identifier|user_?id|account|handle|name)$/i;

/** The password member and its sibling naming the user, down to two wrappers deep. */
function pairIn(schema: Json, at = '', depth = 0): { user: string; password: string } | undefined {
  const s = merged(schema);
  const properties = isRecord(s.properties) ? s.properties : {};
  const names = Object.keys(properties);
  const password = names.find((n) => PASSWORD.test(n));
  const user = names.find((n) => USER.test(n) && !isRecord(merged((properties[n] as Json) ?? {}).properties));
  if (password !== undefined && user !== undefined)
    return { user: `${at}${user}`, password: `${at}${password}` };
  if (depth >= 2) return undefined;
  for (const n of names) {
    const inner = properties[n];
    if (isRecord(inner)) {
      const found = pairIn(inner, `${at}${n}.`, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function failureOf(op: Operation): number {
  const responses = isRecord(op.raw.responses) ? op.raw.responses : {};
  return [401, 400, 403, 422].find((s) => String(s) in responses) ?? 401;
}

export function loginOf(doc: Json, op: Operation): LoginPlan | undefined {
  if (op.method !== 'post' && op.method !== 'get') return undefined;
  if (op.path.includes('{') || !SAYS_LOGIN.test(`${op.path} ${op.text}`)) return undefined;
  if (op.body !== undefined) {
    const pair = pairIn(op.body);
    if (pair !== undefined) return { from: 'body', ...pair, failure: failureOf(op) };
  }
  const item = isRecord(doc.paths) && isRecord(doc.paths[op.path]) ? (doc.paths[op.path] as Json) : {};
  const query = [item.parameters, op.raw.parameters]
    .flatMap((l) => (Array.isArray(l) ? l : []))
    .filter((p): p is Json => isRecord(p) && p.in === 'query')
    .map((p) => String(p.name));
  const password = query.find((n) => PASSWORD.test(n));
  const user = query.find((n) => USER.test(n));
  if (password !== undefined && user !== undefined)
    return { from: 'query', user, password, failure: failureOf(op) };
  return undefined;
}

function at(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('.')) v = isRecord(v) ? v[part] : undefined;
  return v;
}

/** The identity whose name (or e-mail address) and password the request gives, or undefined. */
export function whoLogsIn(
  plan: LoginPlan,
  body: unknown,
  query: URLSearchParams,
  identities: readonly StandInIdentity[],
): StandInIdentity | undefined {
  const user = plan.from === 'body' ? at(body, plan.user) : query.get(plan.user);
  const password = plan.from === 'body' ? at(body, plan.password) : query.get(plan.password);
  if (typeof user !== 'string' || typeof password !== 'string') return undefined;
  const name = user.toLowerCase();
  return identities.find(
    (id) =>
      (name === id.username.toLowerCase() || name === `${id.username}@example.com`.toLowerCase()) &&
      password === id.password,
  );
}
