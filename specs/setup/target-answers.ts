/**
 * The run's set-up asks the target once before any check, as the CLI's preflight does (specs/lib/reachability.ts):
 * a target that does not answer stops the run with one line, not a run of failed checks (issue #67: the same in a
 * user's own Playwright config as in the CLI, which asks first itself and skips this).
 */
import { checkReachable } from '../lib/reachability.ts';
import type { NodeTlsOptions } from '../lib/tls.ts';
import type { Profile } from '../profile/types.ts';

/** The start of the set-up's error for a target that does not answer; the reporter reads it (exit 3). */
export const UNREACHABLE = 'target unreachable: ';

/** The first endpoint the profile declares, under the base URL (or the base URL itself). */
function firstUrl(profile: Profile, baseUrl: string): string {
  const e = profile.endpoints;
  const endpoint = e.public ?? e.protected ?? e.admin;
  if (endpoint === undefined) return baseUrl;
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(endpoint.path.replace(/^\//, ''), base).toString();
}

/** Throws `target unreachable: GET <url>: <why>` when the target gives no HTTP answer at all. */
export async function expectTargetAnswers(
  profile: Profile,
  baseUrl: string,
  tls: NodeTlsOptions | undefined,
): Promise<void> {
  const url = firstUrl(profile, baseUrl);
  const answer = await checkReachable(url, profile.budget?.timeoutMs ?? 5000, tls);
  if (!answer.reachable) throw new Error(`${UNREACHABLE}GET ${url}: ${answer.reason}`);
}
