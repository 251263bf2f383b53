/**
 * The auth-param a key is sent in, where the profile's form has one (`Token token=<key>`, `MediaBrowser
 * Token="<key>"`; docs/profile.md `apikeyScheme`):
 *
 *   credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]     RFC 9110 §11.4
 *   auth-param  = token BWS "=" BWS ( token / quoted-string )        RFC 9110 §11.2
 *
 * - Near misses: the parameter name with a character inserted, deleted, doubled or replaced at every position
 *   — another parameter, so no key (seed §5 rule 2: 401; 400 where it no longer parses).
 * - Respellings the target must take like the canonical value: the name in another letter case at every
 *   position (§11.2 "the name token is matched case-insensitively"; RFC 7617 §2 "both scheme and parameter
 *   names are matched case-insensitively"), whitespace around "=" (§5.6.3 BWS: "A recipient MUST parse for
 *   such bad whitespace and remove it before interpreting the protocol element").
 * The value's other notation (a token value as a quoted-string) is not probed: §11.2's "Authentication scheme
 * definitions need to accept both notations" and §5.6.6's "The quoted and unquoted values are equivalent" carry
 * no BCP 14 keyword (as `sub` in jwt.claims.wrong-type, left out).
 */
import type { ParamSpelling } from '../../profile/credential-maker.ts';
import { editsAtEveryPosition, type GrammarEdit } from './edits.ts';
import { nextLetter } from './value-edits.ts';

export interface LabelledSpelling extends ParamSpelling {
  readonly label: string;
}

/** "x" and "@" (outside tchar) inserted at every gap; every character deleted, doubled, replaced by the next letter. */
export function paramNameNearMisses(name: string): GrammarEdit[] {
  return editsAtEveryPosition('auth-param name', name, {
    insert: ['x', '@'],
    delete: true,
    duplicate: true,
    substitute: nextLetter,
  }).filter((e) => e.text.toLowerCase() !== name.toLowerCase());
}

/** The name with one character's case inverted at every position, and all upper and all lower case. */
export function paramNameCaseRespellings(name: string): LabelledSpelling[] {
  const out: LabelledSpelling[] = editsAtEveryPosition('auth-param name', name, { letterCase: true }).map(
    (e) => ({ label: `the parameter name with ${e.label.replace(/ of auth-param name/, '')}`, name: e.text }),
  );
  for (const [label, spelled] of [
    ['the parameter name in upper case', name.toUpperCase()],
    ['the parameter name in lower case', name.toLowerCase()],
  ] as const)
    if (spelled !== name && !out.some((s) => s.name === spelled)) out.push({ label, name: spelled });
  return out;
}

/** BWS = OWS = *( SP / HTAB ) around "=" (RFC 9110 §5.6.3, §11.2). */
export const BWS_RESPELLINGS: readonly LabelledSpelling[] = [
  { label: 'a space before "="', before: ' ' },
  { label: 'a space after "="', after: ' ' },
  { label: 'a space on both sides of "="', before: ' ', after: ' ' },
  { label: 'a tab on both sides of "="', before: '\t', after: '\t' },
];
