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
};

export const methodAllow: Rule = {
  id: 'method.405.allow',
  level: 'MUST',
  requirement: 'A 405 carries an Allow field listing the methods the path supports.',
  refs: [rfc(9110, '15.5.6'), rfc(9110, '10.2.1')],
  statuses: [405],
  needs: ['endpoints.methodNotAllowed'],
};

export const methodAllowExcludes: Rule = {
  id: 'method.405.allow-excludes',
  level: 'MUST',
  requirement: 'The Allow field of a 405 does not list the method that was refused.',
  refs: [rfc(9110, '10.2.1'), rfc(9110, '15.5.6')],
  statuses: [405],
  needs: ['endpoints.methodNotAllowed'],
};

export const methodRules: readonly Rule[] = [methodStatus, methodAllow, methodAllowExcludes];
