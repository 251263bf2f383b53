/**
 * Every spelling of a protected path that may reach its resource is protected like the path (seed §5 rules
 * 1–2; RFC 3986 §6.2.2, RFC 9110 §4.2.3): a router that matches `/admin/` or `/ADMIN` while the guard
 * matches `/admin` only hands the resource over. The spellings come from one fast-check arbitrary
 * (specs/fuzz/arbitraries/pathSpelling.ts): each kind's example on every run, then a few generated ones
 * from the run's seed, shrunk to the smallest on a failure. Each goes on the wire as written
 * (specs/lib/request-target.ts); a redirect is an answer, never followed.
 */
import fc from 'fast-check';
import { type PathSpelling, pathSpelling, pathSpellingExamples } from '../fuzz/arbitraries/pathSpelling.ts';
import { forRule, test } from '../kit/fixtures.ts';
import {
  type GuardedRead,
  guardedReadsOrSkip,
  refusalOptions,
  refusedCredentials,
  resourceOf,
} from '../kit/guarded.ts';
import { firstFinding } from '../kit/property.ts';
import { requestCarried, resourceIn } from '../lib/resource-fingerprint.ts';
import { pathOf } from '../profile/methods.ts';
import { pathSpellings } from '../rules/refusal.ts';
import { fail } from '../verdict/verify.ts';

/** Generated spellings after the examples: with 12 kinds × 2 paths of examples, about 50 requests in all. */
const GENERATED = 12;

interface Spelled {
  readonly read: GuardedRead;
  readonly spelling: PathSpelling;
}

/** The declared path's query after the spelled path (before a fragment the spelling added). */
function withQuery(spelled: string, declared: string): string {
  const q = declared.indexOf('?');
  if (q === -1) return spelled;
  const query = declared.slice(q + 1);
  const hash = spelled.indexOf('#');
  const [head, tail] = hash === -1 ? [spelled, ''] : [spelled.slice(0, hash), spelled.slice(hash)];
  return `${head}${head.includes('?') ? '&' : '?'}${query}${tail}`;
}

test(
  'each spelling of each protected path (trailing slash, case, percent-encoding, dot segments, //, ;param, ?, #, suffixes) without credentials and as a refused identity → 404, a redirect, 400, 401 or 403, never 2xx',
  forRule(pathSpellings),
  async ({ kit }) => {
    const reads = guardedReadsOrSkip(kit);
    const spelled = (read: GuardedRead) => (spelling: PathSpelling) => ({ read, spelling });
    const finding = await firstFinding<Spelled>({
      rule: pathSpellings,
      arbitrary: fc.oneof(...reads.map((read) => pathSpelling(pathOf(read.path)).map(spelled(read)))),
      examples: reads.flatMap((read) => pathSpellingExamples(pathOf(read.path)).map(spelled(read))),
      generated: GENERATED,
      check: async ({ read, spelling }) => {
        const path = withQuery(spelling.path, read.path);
        for (const who of await refusedCredentials(kit, read)) {
          const ex = await kit.send(
            { method: 'GET', path },
            who.authorization,
            undefined,
            refusalOptions(who),
          );
          if (ex.status < 200 || ex.status > 299) continue;
          const resource = await resourceOf(kit, read);
          const carried =
            resource === undefined ? undefined : resourceIn(ex.body, resource, requestCarried(ex.request));
          return {
            ex,
            expected: `404, a redirect, 400, or the refusal ${read.path} gets (401, 403) for ${path} (${spelling.kind}) with ${who.label}`,
            actual: `status ${ex.status}${carried ? `, the body carrying ${carried}` : ''}`,
          };
        }
        return undefined;
      },
    });
    if (finding !== undefined)
      fail(pathSpellings, finding.ex, finding.expected, `${finding.actual} (fast-check ${finding.replay})`);
  },
);
