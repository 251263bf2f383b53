/**
 * Inside the credential, probed from the grammar at every position (issue #37; the edits are
 * specs/fuzz/grammar/value-edits.ts):
 *
 *   user-pass = user-id ":" password ; user-id excludes ":"                RFC 7617 §2
 *   b64token  = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="   RFC 6750 §2.1
 *   token68   = the same characters                                        RFC 9110 §11.2
 *
 * A password, a key and a signed token are compared whole: the value with one character inserted, deleted,
 * doubled or replaced — anywhere — is another value, no valid credential (seed §5 rule 2: 401). An edit that
 * leaves the credentials malformed (a control character in user-pass, RFC 7617 §2 "MUST NOT contain any
 * control characters"; no ":"; a value that is no token68) may be answered 400 instead (RFC 9110 §15.5.1).
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

const CHECKED = [seed('5', 'rule 2'), rfc(9110, '15.5.2')];

export const basicUserPassNearMiss: Rule = {
  id: 'basic.user-pass.near-miss',
  level: 'MUST',
  requirement:
    'A Basic credential whose decoded user-pass has one character inserted, deleted, doubled or replaced — one edit at every position, the operation and the character ("%", "_", ":", DEL, another letter, the password\'s letter case) rotating along it, and every operation around the ":" — is refused: 401, or 400 where the edit leaves no ":" or a control character. Each declared Basic identity; an edit equal to another identity\'s user-pass is not sent.',
  refs: [...CHECKED, rfc(7617, '2')],
  statuses: [400, 401],
  needs: ['identities.*.basic', 'endpoints.*.schemes (basic)'],
  requires: ['basic'],
  impact: 'access',
  remedy:
    'Compare the decoded user-id and password exactly, byte for byte, after splitting at the first colon.',
};

export const credentialValueNearMiss: Rule = {
  id: 'auth.credential.near-miss',
  level: 'MUST',
  requirement:
    'A valid API key or Bearer token with one character inserted, deleted, doubled or replaced — one edit at every position of the value, the operation and the character (inside the alphabet, "~" and "+", ".", "!") rotating along it — is refused: 401, or 400 where the value is no longer token68. Where the key is sent as an auth-param, so is the key under a near miss of the parameter name ("x" or "@" inserted, a character deleted, doubled or replaced at every position; RFC 9110 §11.2).',
  refs: [...CHECKED, rfc(6750, '2.1'), rfc(6750, '3.1'), rfc(9110, '11.2'), rfc(7515, '5.2')],
  statuses: [400, 401],
  needs: ['identities.*.bearer / apikey', 'endpoints.*.schemes'],
  requires: [['bearer', 'apikey']],
  impact: 'access',
  remedy:
    "Compare the whole token or key exactly (and a key's parameter name, case aside); never normalise or truncate it.",
};

export const credentialGrammarRules: readonly Rule[] = [basicUserPassNearMiss, credentialValueNearMiss];
