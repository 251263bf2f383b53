/**
 * The scheme names a challenge on a request may give (issue #68): the target's own words for the schemes the
 * request takes, their declared aliases (profile `schemeAliases`), and any other name the target is seen to
 * accept there — a valid credential of the request, sent under that name, answered 2xx (Rails's `Token` beside
 * `Bearer`). RFC 9110 §11.6.1 asks a 401's challenge to apply to the target resource: a scheme the resource
 * accepts does, whether or not the profile listed it. One request per unknown name, and only for names a 401
 * actually gave.
 */
import type { Challenge } from '../lib/www-authenticate.ts';
import type { Kit, Probe } from './kit.ts';

export async function challengeNames(
  kit: Kit,
  probe: Probe,
  challenges: readonly Challenge[],
): Promise<string[]> {
  const names = probe.schemes.flatMap((s) => kit.credentials.names(s));
  const known = (word: string) => names.some((n) => n.toLowerCase() === word.toLowerCase());
  for (const word of new Set(challenges.map((c) => c.scheme).filter((w) => !known(w)))) {
    for (const scheme of probe.schemes) {
      const canonical = await kit.authorization(probe.identities[0] ?? 'admin', scheme);
      const value = canonical === undefined ? undefined : kit.credentials.respelled(scheme, canonical, word);
      if (canonical === undefined || value === undefined) continue;
      const ex = await kit.send(probe, value);
      await kit.cleanup(probe, ex, canonical);
      if (ex.status >= 200 && ex.status <= 299) {
        names.push(word);
        break;
      }
    }
  }
  return names;
}
