/**
 * A refusal refuses everything (seed §5 rule 1: "The server verifies the client's identity from these
 * credentials before it processes the request"; §7 403: the server "refuses to authorize it"). A protected
 * resource stays protected one step to the side of the canonical request: on every method, on every
 * spelling of its path; a refused request changes nothing and hands over nothing of what it protects.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

const GUARDED = ['endpoints.protected | endpoints.admin (GET, with schemes)'];

/**
 * RFC 9110 §9.3.2: "The HEAD method is identical to GET except that the server MUST NOT send content in the
 * response" — so a HEAD is authenticated and authorized as the GET is, and seed §5 rule 2 asks a 401 of it
 * without credentials.
 */
export const headRefused: Rule = {
  id: 'method.head.refused',
  level: 'MUST',
  requirement:
    'HEAD on a protected path is authenticated exactly like GET: without credentials, and as an identity the GET refuses, it gets the status the GET gets (401, 403), never 2xx.',
  refs: [rfc(9110, '9.3.2'), seed('5', 'rule 2'), seed('7', '403')],
  statuses: [401, 403],
  needs: GUARDED,
  impact: 'status',
  remedy: 'Authenticate HEAD exactly like GET: 401 or 403 wherever GET gets it.',
};

/**
 * The answers RFC 9110 has for a method a resource refuses: 405 (§15.5.6), 501 for one the server does not
 * recognise (§9.1, §15.6.2), 400 for a request line it cannot parse (§15.5.1) — or the refusal of the
 * credentials (401, 403) when the server checks those first. OPTIONS may succeed (§9.3.7) but describes the
 * resource's communication options, not the resource.
 */
export const otherMethodsRefused: Rule = {
  id: 'method.other.refused',
  level: 'MUST',
  requirement:
    'Every other method on a protected path — OPTIONS, the methods it does not support, an extension method (PROPFIND), an unregistered one, a lower-case "get" — without credentials or as an identity the path refuses, is answered 400, 401, 403, 405 or 501 (OPTIONS also 2xx without the resource), never 2xx with it.',
  refs: [seed('5', 'rule 1'), seed('5', 'rule 2'), rfc(9110, '9.1'), rfc(9110, '15.5.6'), rfc(9110, '9.3.7')],
  statuses: [400, 401, 403, 405, 501],
  needs: GUARDED,
  impact: 'status',
  remedy:
    'Authenticate every method on a protected path before dispatching it; a method the path lacks gets 405 or 501, never the resource.',
};

/**
 * RFC 3986 §6.2.2 and RFC 9110 §4.2.3 make some spellings of a path equivalent to it (case of percent-
 * encodings, percent-encoded unreserved characters, dot segments) and leave others to the server (a trailing
 * slash, letter case, a `;param`, a suffix): whichever it does, a spelling either is not the resource (404, a
 * redirect, a 400 for a target it will not parse) or is the resource and protected like it.
 */
export const pathSpellings: Rule = {
  id: 'path.spelling.refused',
  level: 'MUST',
  requirement:
    'Every spelling of a protected path that may reach the resource (trailing slash, letter case, percent-encoding, dot segments, doubled slashes, ";param", "?" and "#", a suffix such as ".json") is either not the resource (404, a redirect, 400) or refused like the path (401, 403): never 2xx without valid credentials, nor to an identity the path refuses.',
  refs: [seed('5', 'rule 1'), seed('5', 'rule 2'), rfc(3986, '6.2.2'), rfc(9110, '4.2.3')],
  statuses: [401, 403, 404],
  needs: GUARDED,
  impact: 'status',
  remedy:
    'Normalise the path once, before routing and before the access check, so every spelling that reaches the resource is authenticated like the path.',
};

/**
 * RFC 9110 §15.5.2: a 401 says "the request has not been applied because it lacks valid authentication
 * credentials"; §15.5.4: with a 403 the server "refuses to fulfill" the request.
 */
export const refusedNoEffect: Rule = {
  id: 'refusal.no-effect',
  level: 'MUST',
  requirement:
    'A write refused with 400, 401 or 403 (missing, wrong or malformed credentials; an identity without write permission) has no effect: read back with valid credentials, no item was created, changed or deleted.',
  refs: [seed('5', 'rule 1'), seed('7', '403'), rfc(9110, '15.5.2'), rfc(9110, '15.5.4')],
  statuses: [400, 401, 403],
  needs: ['endpoints.collection.writeSchemes', 'endpoints.collection.sampleItem', 'identities (the writer)'],
  requires: ['writes'],
  impact: 'access',
  remedy:
    'Authenticate and authorise a write before any effect: store nothing from a request answered 400, 401 or 403.',
};

export const refusalNoResource: Rule = {
  id: 'refusal.no-resource',
  level: 'MUST',
  requirement:
    'A 401 or 403 on a protected path does not carry the protected resource: none of the values, nor all the member names, of the 200 body a permitted identity gets.',
  refs: [seed('5', 'rule 1'), seed('7', '403'), rfc(9110, '15.5.2'), rfc(9110, '15.5.4')],
  statuses: [401, 403],
  needs: [...GUARDED, 'identities (a permitted one)'],
  impact: 'leak',
  remedy: "Build a refusal's body from the error alone (problem+json), never from the resource.",
};

/** The same requirement judged on every 401 and 403 of the run (specs/observe/refusal-resource.ts). */
export const observedRefusalNoResource: Rule = {
  id: 'observed.refusal.no-resource',
  level: 'MUST',
  requirement:
    'No 401 or 403 the run receives carries a protected resource the run saw a permitted identity get (its values, or all its member names).',
  refs: [seed('5', 'rule 1'), seed('7', '403'), rfc(9110, '15.5.2'), rfc(9110, '15.5.4')],
  statuses: [401, 403],
  impact: 'leak',
  remedy: 'Build every 401 and 403 body from the error alone, never from the resource.',
};

export const refusalRules: readonly Rule[] = [
  headRefused,
  otherMethodsRefused,
  pathSpellings,
  refusedNoEffect,
  refusalNoResource,
  observedRefusalNoResource,
];
