/**
 * The scheme word and its separator, probed from the grammar (RFC 9110 §11.4, §11.1, §5.6.2):
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-scheme = token          ; "a case-insensitive token to identify the authentication scheme" (§11.1)
 *
 * The word is a token compared whole: another token — the word with a character inserted, deleted, doubled
 * or replaced at any position — is another scheme, which the target does not accept, so a valid credential
 * under it is no valid credential (seed §5 rule 2: 401; a header the target cannot parse: 400). Between the
 * word and the credentials stand one or more spaces: two or three are `1*SP`; none, or a tab, is not — but
 * recovering the *same* credential from that invalid construct is what RFC 9110 §2.2 allows a recipient ("MAY
 * attempt to recover a usable protocol element from an invalid construct"), so it is reported, not failed
 * (issue #68: Rails accepts `Bearer<TAB><token>`).
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

const NEEDS = ['endpoints.*.schemes', 'identities.*.basic / bearer / apikey'];

export const schemeNearMiss: Rule = {
  id: 'auth.scheme.near-miss',
  level: 'MUST',
  requirement:
    'A valid credential under a near miss of its scheme word (a character inserted, deleted, doubled or replaced at every position of the word, "@" inserted) — another scheme word — is refused (400 or 401).',
  refs: [seed('5', 'rule 2'), rfc(9110, '11.1'), rfc(9110, '11.4'), rfc(9110, '15.5.2')],
  statuses: [400, 401],
  needs: NEEDS,
  impact: 'access',
  remedy:
    'Compare the scheme word exactly (case aside): refuse any other word, never fall back to a scheme the word only resembles (a prefix test such as startsWith("bearer")).',
};

export const schemeSeparatorRecovered: Rule = {
  id: 'auth.scheme.separator-recovered',
  level: 'INFO',
  requirement:
    'Reports whether a valid credential with the space after its scheme word deleted or replaced by a tab is accepted as the same credential (RFC 9110 §2.2: a recipient MAY recover a usable protocol element from an invalid construct) or refused (400 or 401); either is allowed.',
  refs: [rfc(9110, '2.2'), rfc(9110, '11.4')],
  statuses: [200, 400, 401],
  needs: NEEDS,
  impact: 'status',
  remedy:
    'Either answer is allowed; a strict parser refuses the construct (400 or 401), a lenient one recovers the same credential.',
};

export const schemeSeparatorSpaces: Rule = {
  id: 'auth.scheme.separator-spaces',
  level: 'MUST',
  requirement:
    'A valid credential with two or three spaces between the scheme word and the credentials is answered like the canonical single space (RFC 9110 §11.4: 1*SP); where the key is sent as an auth-param, so is the key with a space or tab before, after or around its "=" (RFC 9110 §11.2 auth-param = token BWS "=" BWS …; §5.6.3: a recipient MUST remove BWS).',
  refs: [rfc(9110, '11.4'), rfc(9110, '5.6.3'), rfc(9110, '11.2'), seed('5')],
  statuses: [200],
  needs: NEEDS,
  impact: 'refusal',
  remedy:
    'Split the field value at the first run of spaces (1*SP), not at each single space: "Bearer  <token>" carries the same token.',
};

export const schemeGrammarRules: readonly Rule[] = [
  schemeNearMiss,
  schemeSeparatorRecovered,
  schemeSeparatorSpaces,
];
