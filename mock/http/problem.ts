/**
 * Error replies as RFC 9457 problem details: `application/problem+json` with `type`, `title`, `status`
 * (always the HTTP status, §3.1.2) and `detail`. Never a stack trace, never a credential: details are
 * written here or come from the authenticator's `reason`, which the auth contract keeps credential-free.
 */

import type { OutgoingHttpHeaders } from 'node:http';
import { BASE_HEADERS, type Reply } from './reply.ts';

export const PROBLEM_TYPE = 'application/problem+json';

/** Problem types: a stable URN per kind of problem, with its status and title (RFC 9457 §3.1.1, §3.1.3). */
export const PROBLEMS = {
  'bad-request': { status: 400, title: 'Bad Request' },
  'invalid-body': { status: 400, title: 'Invalid request body' },
  'invalid-request': { status: 400, title: 'Malformed credentials' },
  'authentication-required': { status: 401, title: 'Authentication required' },
  'invalid-credentials': { status: 401, title: 'Invalid credentials' },
  'insufficient-permissions': { status: 403, title: 'Insufficient permissions' },
  'route-closed': { status: 403, title: 'Resource closed' },
  'ip-blocked': { status: 403, title: 'Client address blocked' },
  'geo-blocked': { status: 403, title: 'Client location blocked' },
  'client-banned': { status: 403, title: 'Client banned for exceeding the rate limit' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  'request-timeout': { status: 408, title: 'Request Timeout' },
  'content-too-large': { status: 413, title: 'Content Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  'expectation-failed': { status: 417, title: 'Expectation Failed' },
  'rate-limited': { status: 429, title: 'Too Many Requests' },
  'header-fields-too-large': { status: 431, title: 'Request Header Fields Too Large' },
  'internal-error': { status: 500, title: 'Internal Server Error' },
  'limits-unavailable': { status: 503, title: 'Rate-limit store unavailable' },
  'rate-limited-unavailable': { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemKind = keyof typeof PROBLEMS;

export const PROBLEM_TYPE_PREFIX = 'urn:gatecheck:problem:';

/** The problem+json document, serialised. Extension members (RFC 9457 §3.2) come after the standard ones. */
export function problemBody(kind: ProblemKind, detail: string, extensions?: Record<string, unknown>): Buffer {
  const { status, title } = PROBLEMS[kind];
  return Buffer.from(
    JSON.stringify({ type: PROBLEM_TYPE_PREFIX + kind, title, status, detail, ...extensions }),
  );
}

export function problem(
  kind: ProblemKind,
  detail: string,
  headers?: OutgoingHttpHeaders,
  extensions?: Record<string, unknown>,
): Reply {
  const body = problemBody(kind, detail, extensions);
  return {
    status: PROBLEMS[kind].status,
    headers: { ...BASE_HEADERS, ...headers, 'content-type': PROBLEM_TYPE, 'content-length': body.length },
    body,
  };
}

/** Fixed replies, built once: they are answered often (404 scans, 500s) and never vary. */
export const NOT_FOUND = problem('not-found', 'No resource at this path.');
export const INTERNAL_ERROR = problem(
  'internal-error',
  'The mock met an unexpected condition and could not fulfil the request.',
);
