/**
 * A curl line that replays a request, credentials redacted (specs/lib/redact.ts): QA pastes it, puts
 * their own credential back in, and sees what the suite saw.
 */
import { isSecretHeader } from '../../shared/secrets.ts';
import { shellQuote } from '../../shared/shell.ts';
import { redactAuthorization } from './redact.ts';
import { normalisedAway, wireTarget } from './request-target.ts';

export interface ReplayRequest {
  readonly method: string;
  readonly url: string;
  /** Field lines in the order sent; a name may repeat. */
  readonly headerLines: readonly (readonly [string, string])[];
  readonly body?: string;
}

export function curlLine(req: ReplayRequest): string {
  const parts = ['curl', '-i', '-sS', '-X', req.method, shellQuote(req.url)];
  // curl removes dot segments and drops a fragment: a spelling of a path goes out as sent (request-target.ts).
  if (normalisedAway(req.url)) parts.push('--request-target', shellQuote(wireTarget(req.url)));
  for (const [name, value] of req.headerLines) {
    const shown = isSecretHeader(name) ? redactAuthorization(value) : value;
    // curl drops a header given as `Name:`; `Name;` sends it with an empty value.
    parts.push('-H', shellQuote(shown === '' ? `${name};` : `${name}: ${shown}`));
  }
  if (req.body !== undefined) parts.push('--data-raw', shellQuote(req.body));
  return parts.join(' ');
}
