/**
 * A refusal hands nothing over (seed §5 rule 1, §7 403; RFC 9110 §15.5.2, §15.5.4): the body of a 401 or 403
 * on a protected path carries nothing of the resource a permitted identity gets there — the bug is the
 * missing `return` after the status is set, which sends the resource with the 401. What a resource looks
 * like: specs/lib/resource-fingerprint.ts. Every other 401 and 403 of the run is judged by the observer
 * observed.refusal.no-resource (specs/observe/refusal-resource.ts).
 */
import { forRule, test } from '../kit/fixtures.ts';
import { guardedReadsOrSkip, refusalOptions, refusedCredentials, resourceOf } from '../kit/guarded.ts';
import { unmet } from '../kit/kit.ts';
import { unknownKeyToken, wrongApikeys, wrongBasic } from '../kit/stimuli.ts';
import { requestCarried, resourceIn } from '../lib/resource-fingerprint.ts';
import { refusalNoResource } from '../rules/refusal.ts';
import { expectRule } from '../verdict/verify.ts';

test(
  'each protected path without, with wrong and with malformed credentials, and as a refused identity → the 401 or 403 carries nothing of the resource a permitted identity gets',
  forRule(refusalNoResource),
  async ({ kit }) => {
    const reads = guardedReadsOrSkip(kit);
    let judged = 0;
    for (const read of reads) {
      const resource = await resourceOf(kit, read);
      if (resource === undefined) continue;
      const tried = await refusedCredentials(kit, read);
      if (read.schemes.includes('bearer'))
        tried.push({
          label: 'a token signed by an unknown key',
          authorization: kit.credentials.bearer(await unknownKeyToken(kit)),
        });
      if (read.schemes.includes('basic')) for (const wrong of wrongBasic(kit).slice(0, 1)) tried.push(wrong);
      if (read.schemes.includes('apikey'))
        for (const wrong of wrongApikeys(kit).slice(0, 1)) tried.push(wrong);
      tried.push({
        label: 'malformed credentials',
        authorization: kit.credentials.raw(read.schemes[0] ?? 'bearer', 'gate check malformed'),
      });
      for (const who of tried) {
        const ex = await kit.send(
          { method: 'GET', path: read.path },
          who.authorization,
          undefined,
          refusalOptions(who),
        );
        if (ex.status !== 401 && ex.status !== 403) continue;
        judged++;
        const carried = resourceIn(ex.body, resource, requestCarried(ex.request));
        expectRule(
          carried === undefined,
          refusalNoResource,
          ex,
          `a ${ex.status} to ${who.label} on ${read.path} without the resource`,
          `a body carrying ${carried}`,
        );
      }
    }
    if (judged === 0)
      unmet(
        'no protected path gave a permitted identity a 200 with a recognisable body and a refused request a 401 or 403',
      );
  },
);
