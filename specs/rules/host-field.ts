/**
 * The Host field (RFC 9112 §3.2): "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
 * request message that lacks a Host header field and to any request message that contains more than one Host
 * header field line or a Host header field with an invalid field value." Two Host lines are where a proxy and
 * the server behind it may pick different hosts (RFC 9112 §11.2, request smuggling); seed §7 400: "The request
 * is malformed or invalid."
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const hostField: Rule = {
  id: 'request.400.host-field',
  level: 'MUST',
  requirement:
    'A request with two Host field lines, or a Host value that is not uri-host [":" port], is answered with 400, never 2xx, 401, 403 or 5xx.',
  refs: [seed('7', '400'), rfc(9112, '3.2'), rfc(9110, '7.2'), rfc(3986, '3.2.2')],
  statuses: [400],
  needs: ['endpoints.public | protected | admin'],
  impact: 'status',
  remedy:
    'Answer 400 to a request with two Host lines or a Host value outside uri-host [":" port], before routing (RFC 9112 §3.2).',
  causes: [
    {
      stack: "Node's node:http (the mock with server.strictHost false)",
      cause:
        'keeps the first of two Host lines and takes any Host value, so an app on it answers the request as usual',
      shownBy: 'tests/suite/real-nginx.test.ts',
    },
    {
      stack: "Debian's nginx in front (proxy_set_header Host $http_host)",
      cause:
        'refuses two Host lines, "/" or a space itself but passes other invalid values (userinfo, a port that is not digits, "%zz") on to the server behind',
      shownBy: 'tests/suite/real-nginx.test.ts',
    },
  ],
};

export const hostFieldRules: readonly Rule[] = [hostField];
