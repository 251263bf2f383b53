/** 405 with Allow (seed §7; RFC 9110 §15.5.6, §10.2.1). */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

export const methodStatus: Rule = {
  id: 'method.405.status',
  level: 'MUST',
  requirement: 'A method the path does not support, sent with valid credentials, is answered with 405.',
  refs: [seed('7', '405'), rfc(9110, '15.5.6')],
  statuses: [405],
  needs: ['endpoints.methodNotAllowed'],
  impact: 'status',
  remedy: 'Answer 405 to a method the path does not support (after authentication), not 404 or 200.',
};

export const methodAllow: Rule = {
  id: 'method.405.allow',
  level: 'MUST',
  requirement: 'A 405 carries an Allow field listing the methods the path supports.',
  refs: [rfc(9110, '15.5.6'), rfc(9110, '10.2.1')],
  statuses: [405],
  needs: ['endpoints.methodNotAllowed'],
  impact: 'status',
  remedy: 'Send an Allow field with every 405 listing the methods the path supports.',
};

export const methodAllowExcludes: Rule = {
  id: 'method.405.allow-excludes',
  level: 'MUST',
  requirement: 'The Allow field of a 405 does not list the method that was refused.',
  refs: [rfc(9110, '10.2.1'), rfc(9110, '15.5.6')],
  statuses: [405],
  needs: ['endpoints.methodNotAllowed'],
  impact: 'status',
  remedy: "Build Allow from the path's routes: it never lists the method just refused.",
};

/**
 * RFC 9110 §15.5.6: "The origin server MUST generate an Allow header field in a 405 response containing a
 * list of the target resource's currently supported methods" — so a supported method missing is as wrong as
 * the refused one listed. Supported: what the profile declares (docs/profile.md "methods"); HEAD and
 * OPTIONS by what the target answers.
 */
export const methodAllowComplete: Rule = {
  id: 'method.405.allow-complete',
  level: 'MUST',
  requirement:
    'The Allow of a 405 on each declared path lists every method the path supports (HEAD and OPTIONS when the target answers them), and none it refuses.',
  refs: [rfc(9110, '15.5.6'), rfc(9110, '10.2.1')],
  statuses: [405],
  needs: ['endpoints (paths and their methods)'],
  impact: 'status',
  remedy:
    "List every method each path supports in its 405's Allow (HEAD and OPTIONS when answered), and none it refuses.",
};

/**
 * RFC 9110 §9.1: "All general-purpose servers MUST support the methods GET and HEAD"; §9.3.2: the server
 * MUST NOT send content in the response to HEAD and SHOULD send the same header fields as for GET, except
 * those whose value is only known while generating the content.
 */
export const methodHead: Rule = {
  id: 'method.head',
  level: 'MUST',
  requirement:
    'HEAD on each GET endpoint of the profile is answered with the status and header fields of the GET, without content.',
  refs: [rfc(9110, '9.1'), rfc(9110, '9.3.2')],
  statuses: [200, 401, 403, 405],
  needs: ['endpoints.public | protected | admin'],
  impact: 'status',
  remedy: 'Answer HEAD like GET on every read: the same status and header fields, no content.',
};

export const methodRules: readonly Rule[] = [
  methodStatus,
  methodAllow,
  methodAllowExcludes,
  methodAllowComplete,
  methodHead,
];
