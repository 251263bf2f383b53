/**
 * What the stand-in's banner says about the document beside the identities (mock/cli/stand-in.ts prints it):
 * - per security scheme, exactly how its credential is sent — the header, query parameter or cookie the
 *   document names, the word before a key in Authorization (`Token <key>`, PagerDuty's `Token token=<key>`),
 *   and the variable holding each identity's value (shared/credential-env.ts); a key that only modifies another
 *   credential (a Sudo or one-time password header) is said to be no credential alone;
 * - the operations kept to the administrator (403 for the others), the login operations and what they take;
 * - the request bodies the mock does not check, each with why (unvalidated.ts).
 */
import type { StandInIdentity } from './identities.ts';
import type { DocumentScheme } from './schemes.ts';
import type { Unvalidated } from './unvalidated.ts';

export interface StandInSummary {
  readonly schemes: readonly DocumentScheme[];
  readonly identities: readonly StandInIdentity[];
  /** `GET /api/admin/users`, … */
  readonly adminOnly: readonly string[];
  readonly logins: readonly string[];
  readonly unvalidated: readonly Unvalidated[];
}

/** How one scheme's credential is sent, with `<X>` for the identity's variable's field. */
export function howToSend(scheme: DocumentScheme): string {
  const { place } = scheme;
  if (scheme.kind === 'unsupported') return 'not supported by the mock: a requirement naming it is never met';
  if (scheme.kind === 'jwt')
    return 'header Authorization: Bearer $GATECHECK_<ID>_BEARER (a JWT the mock signs)';
  if (scheme.kind === 'basic')
    return 'header Authorization: Basic base64($GATECHECK_<ID>_USERNAME:$GATECHECK_<ID>_PASSWORD)';
  if (place.in === 'authorization') {
    const value =
      place.param === undefined
        ? '$GATECHECK_<ID>_APIKEY'
        : `${place.param.replace(/=$/, '')}=$GATECHECK_<ID>_APIKEY`;
    return `header Authorization: ${place.word === '' ? '' : `${place.word} `}${value}`;
  }
  if (place.in === 'header') return `header ${place.name}: $GATECHECK_<ID>_APIKEY`;
  if (place.in === 'query') return `query ?${place.name}=$GATECHECK_<ID>_APIKEY`;
  return `cookie ${place.name}=$GATECHECK_<ID>_APIKEY`;
}

const MAX_LISTED = 12;

function listed(items: readonly string[]): string[] {
  const shown = items.slice(0, MAX_LISTED).map((i) => `    ${i}`);
  return items.length > MAX_LISTED ? [...shown, `    … and ${items.length - MAX_LISTED} more`] : shown;
}

export function summaryLines(summary: StandInSummary): string[] {
  const width = Math.max(8, ...summary.schemes.map((s) => s.name.length));
  const lines = [
    'How to send each scheme’s credential (<ID>: ADMIN, USER, NOBODY, …):',
    ...summary.schemes.map(
      (s) =>
        `  ${s.name.padEnd(width)} ${howToSend(s)}${s.modifier ? ' — only beside another scheme, never a credential alone' : ''}`,
    ),
  ];
  if (summary.adminOnly.length > 0)
    lines.push(
      `Administrator's operations (the admin only; 403 for the others):`,
      ...listed(summary.adminOnly),
    );
  if (summary.logins.length > 0)
    lines.push(
      'Logins (the user gatecheck-<identity>, or gatecheck-<identity>@example.com, with $GATECHECK_<ID>_PASSWORD;',
      '  a wrong pair is the document’s failure status):',
      ...listed(summary.logins),
    );
  lines.push(
    summary.unvalidated.length === 0
      ? 'Request bodies: every one the document describes is checked against its schema.'
      : 'Request bodies not checked, or checked in part:',
    ...listed(summary.unvalidated.map((u) => `${u.operation} — ${u.partly ? 'in part: ' : ''}${u.reason}`)),
  );
  return lines;
}
