/**
 * The observer of every provoked 5xx (issue #68): any answer in the 5xx class to a request the suite sent —
 * whichever check or fuzz case sent it — is judged, not only those of the rules that look for one. Seed §7
 * keeps 500 for "an unexpected condition"; every request the suite sends is a well-defined client request
 * (valid, or wrong in a way a 4xx names), so a 5xx to it is a server failure (RFC 9110 §15.6).
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * MUST: seed §7 "500 The server met an unexpected condition and could not fulfil the request" — the suite's
 * requests are expected conditions, each with a 2xx or 4xx answer. Exempt, because a text allows them:
 *  - the profile's declared fault trigger (`fault`), whose 500 server.500.fault asks for;
 *  - 503 from a limiter the profile declares with status 503 (RFC 9110 §15.6.4, docs/profile.md rateLimit);
 *  - 501 to a method the profile declares for no path (RFC 9110 §9.1: "An origin server that receives a
 *    request method that is unrecognized or not implemented SHOULD respond with the 501 (Not Implemented)
 *    status code"; §15.6.2: for a method it "is not capable of supporting … for any resource").
 */
export const observedNo5xx: Rule = {
  id: 'observed.no-5xx',
  level: 'MUST',
  requirement:
    "No request the suite sends is answered with 5xx, except the profile's fault trigger, a 503 of a limiter the profile declares with status 503, and a 501 to a method the profile declares for no path.",
  refs: [seed('7', '500'), rfc(9110, '15.6'), rfc(9110, '15.6.1'), rfc(9110, '9.1'), rfc(9110, '15.6.2')],
  statuses: [500, 501, 502, 503, 504],
  impact: 'status',
  remedy:
    'Catch the failure the request provokes and answer it as the client error it is (400 for malformed input, 401 for a credential that cannot be read), so no request a client can send crashes the server.',
};

export const observedServerErrorRules: readonly Rule[] = [observedNo5xx];
