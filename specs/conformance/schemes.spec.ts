/** Scheme names are case-insensitive (RFC 9110 §11.1: "a case-insensitive token"). */
import { paramNameCaseRespellings } from '../fuzz/grammar/auth-param.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { unmet } from '../kit/kit.ts';
import { CANONICAL_SCHEME_NAME } from '../profile/credential-maker.ts';
import type { Scheme } from '../profile/types.ts';
import { schemeCaseInsensitive } from '../rules/schemes.ts';
import { judgeEachClass } from '../verdict/each-class.ts';
import { expectStatus } from '../verdict/verify.ts';

/** Lower, upper and alternating case of a scheme name: "bearer", "BEARER", "bEaReR". */
function spellings(name: string): string[] {
  const alternating = [...name].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch.toLowerCase())).join('');
  return [name.toLowerCase(), name.toUpperCase(), alternating];
}

for (const scheme of ['bearer', 'basic', 'apikey'] as const satisfies readonly Scheme[]) {
  const canonical = CANONICAL_SCHEME_NAME[scheme];
  test(
    `valid ${canonical} credentials with the scheme as ${spellings(canonical)
      .map((s) => `"${s}"`)
      .join(', ')} → the same 200 as "${canonical}"`,
    forRule(schemeCaseInsensitive),
    async ({ kit }) => {
      const probe = kit.probeFor(scheme, 'admin');
      const authorization = await kit.auth('admin', scheme);
      // The target's own word for a key (profile apikeyScheme); a key sent alone has no scheme to respell.
      const word = kit.schemeWord(scheme) ?? unmet('the profile sends the key without a scheme word');
      const credential = authorization.slice(word.length);
      const baseline = await kit.send(probe, authorization);
      await kit.cleanup(probe, baseline, authorization);
      if (baseline.status < 200 || baseline.status > 299) {
        unmet(`the canonical "${word}" form answered ${baseline.status}, not 2xx (see success.200.*)`, [
          'success.200.*',
        ]);
      }
      // Each class judged to its end (issue #67): a refused word case never hides a refused parameter case.
      await judgeEachClass([
        {
          label: "the scheme word's letter case",
          run: async () => {
            for (const spelling of spellings(word)) {
              const ex = await kit.send(probe, `${spelling}${credential}`);
              await kit.cleanup(probe, ex, authorization);
              expectStatus(
                ex,
                [baseline.status],
                schemeCaseInsensitive,
                `(as for "${word}") with the scheme spelled "${spelling}"`,
              );
            }
          },
        },
        {
          // The auth-param a key is sent in: its name is matched case-insensitively too (RFC 9110 §11.2).
          label: "the key parameter name's letter case",
          run: async () => {
            const key = scheme === 'apikey' ? kit.identity('admin')?.apikey : undefined;
            for (const spelling of key === undefined
              ? []
              : paramNameCaseRespellings(kit.credentials.apikeyForm.param ?? '')) {
              const value = kit.credentials.apikeyParam(key as string, spelling);
              if (value === undefined) break;
              const ex = await kit.send(probe, value);
              await kit.cleanup(probe, ex, authorization);
              expectStatus(
                ex,
                [baseline.status],
                schemeCaseInsensitive,
                `(as for the canonical parameter) with ${spelling.label}`,
              );
            }
          },
        },
      ]);
    },
  );
}
