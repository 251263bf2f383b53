/**
 * The stand-in's refusals as RFC 9457 problem details, under the status the document declares for them (a
 * 422 where it declares 422 and no 400, a 409 for a key already taken, its own 401 for a wrong login) — the
 * same `type`, `title`, `status`, `detail` members as the mock's other problems (mock/http/problem.ts), never a
 * stack trace or a credential.
 */
import { PROBLEM_TYPE, PROBLEM_TYPE_PREFIX } from '../http/problem.ts';
import { BASE_HEADERS, type Reply } from '../http/reply.ts';

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
};

export function statusProblem(
  status: number,
  kind: string,
  detail: string,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
): Reply {
  const body = Buffer.from(
    JSON.stringify({
      type: PROBLEM_TYPE_PREFIX + kind,
      title: TITLES[status] ?? 'Error',
      status,
      detail,
      ...extensions,
    }),
  );
  return {
    status,
    headers: { ...BASE_HEADERS, ...headers, 'content-type': PROBLEM_TYPE, 'content-length': body.length },
    body,
  };
}

/** The status for a body that breaks the document's schema: its 400, else its 422 (RFC 9110 §15.5.21), else 400. */
export function invalidStatus(declared: ReadonlySet<number>): number {
  return declared.has(400) || !declared.has(422) ? 400 : 422;
}

/** The status for a key already taken: its 409 (RFC 9110 §15.5.10), else its 422, else 409. */
export function conflictStatus(declared: ReadonlySet<number>): number {
  return declared.has(409) || !declared.has(422) ? 409 : 422;
}
