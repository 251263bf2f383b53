/**
 * What a 401 (and a Bearer 403) says in WWW-Authenticate: RFC 9110 §11.6.1 challenge syntax, realm
 * quoting (§11.5), Basic (RFC 7617 §2) and Bearer (RFC 6750 §3) specifics.
 */

import { challengeNames } from '../kit/challenge-names.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, need, type Probe, SCHEMES, unmet } from '../kit/kit.ts';
import { unknownKeyToken, wrongApikeys, wrongBasic } from '../kit/stimuli.ts';
import { type Challenge, challengesFor, param, parseWwwAuthenticate } from '../lib/www-authenticate.ts';
import type { Scheme } from '../profile/types.ts';
import {
  basicCharset,
  basicRealm,
  bearerErrorStatus,
  bearerInsufficientScope,
  bearerInvalidToken,
  bearerMissingNoError,
  realmQuoted,
} from '../rules/challenges.ts';
import type { Rule } from '../rules/types.ts';
import { challengePerScheme, challengePresent } from '../rules/unauthorized.ts';
import { expectChallenges, expectRule, statusList } from '../verdict/verify.ts';
import { type Exchange, headerValues } from '../wire/http.ts';

/**
 * The challenges of a response for a check of another rule: a missing or unparseable header is
 * auth.401.challenge's verdict, so here it skips instead of failing a second rule.
 */
function parsedChallenges(ex: Exchange): Challenge[] {
  const parsed = parseWwwAuthenticate(headerValues(ex, 'www-authenticate'));
  if (!parsed || parsed.length === 0)
    unmet(`the ${ex.status} carries no parseable WWW-Authenticate (see auth.401.challenge)`, [
      'auth.401.challenge',
    ]);
  return parsed;
}

/** The 401 a request without credentials gets; skips when the answer is not a 401. */
async function missing401(kit: Kit, probe: Probe): Promise<Exchange> {
  const ex = await kit.send(probe);
  if (ex.status !== 401)
    unmet(
      `${probe.method} ${probe.field} without credentials answered ${ex.status}, not 401 (see auth.401.missing)`,
      ['auth.401.missing'],
    );
  return ex;
}

/** The challenge scheme names of `schemes` as the target spells them (a key's word from the profile); a key sent alone names none. */
function words(kit: Kit, schemes: readonly Scheme[]): string[] {
  return schemes.map((s) => kit.schemeWord(s)).filter((w): w is string => w !== undefined);
}

function accepted(challenges: readonly Challenge[], names: readonly string[]): boolean {
  return challenges.some((c) => names.some((n) => c.schemeLower === n.toLowerCase()));
}

function schemesOf(challenges: readonly Challenge[]): string {
  return challenges.map((c) => c.scheme).join(', ') || '(none)';
}

/**
 * Checks one 401 against auth.401.challenge: parseable, and naming a scheme the request could use — when it
 * could use one that has a word (a key sent alone, `apikeyScheme: ""`, has none to name; as the observer's
 * judge, specs/observe/judges.ts).
 */
async function expectApplicableChallenge(
  kit: Kit,
  probe: Probe,
  ex: Exchange,
  rule: Rule,
): Promise<Challenge[]> {
  const challenges = expectChallenges(ex, rule);
  // The target's words, their declared aliases, and a name it is seen to accept for the same credential.
  const names = await challengeNames(kit, probe, challenges);
  expectRule(
    names.length === 0 || accepted(challenges, names),
    rule,
    ex,
    `a challenge for one of ${names.join(', ')}`,
    `challenges for ${schemesOf(challenges)}`,
  );
  return challenges;
}

test(
  'each protected request without credentials → 401 with a parseable WWW-Authenticate naming an accepted scheme',
  forRule(challengePresent),
  async ({ kit }) => {
    const probes = kit.probes();
    if (probes.length === 0) lacks('endpoints.protected', 'no protected request declared');
    for (const probe of probes)
      await expectApplicableChallenge(kit, probe, await missing401(kit, probe), challengePresent);
  },
);

test(
  'wrong credentials in each scheme → the 401 carries a parseable WWW-Authenticate naming an accepted scheme',
  forRule(challengePresent),
  async ({ kit }) => {
    const wrong: Record<Scheme, () => Promise<string>> = {
      bearer: async () => kit.credentials.bearer(await unknownKeyToken(kit)),
      basic: async () => wrongBasic(kit)[0]?.authorization ?? '',
      apikey: async () => wrongApikeys(kit)[0]?.authorization ?? '',
    };
    let judged = 0;
    for (const probe of kit.probes()) {
      for (const scheme of probe.schemes) {
        const ex = await kit.send(probe, await wrong[scheme]());
        if (ex.status !== 401) continue; // auth.401.invalid-* judges the status
        await expectApplicableChallenge(kit, probe, ex, challengePresent);
        judged++;
      }
    }
    if (judged === 0)
      unmet('no wrong credential was answered with 401 (see auth.401.invalid-*)', ['auth.401.invalid-*']);
  },
);

test(
  'valid credentials in a scheme the path does not accept, or an unregistered scheme → the 401 names an accepted scheme',
  forRule(challengePresent),
  async ({ kit }) => {
    let judged = 0;
    for (const probe of kit.probes()) {
      const unaccepted: string[] = ['Gatecheck dW5yZWdpc3RlcmVk'];
      for (const scheme of SCHEMES.filter((s) => !probe.schemes.includes(s))) {
        const authorization = await kit.authorization(probe.identities[0] ?? 'admin', scheme);
        if (authorization) unaccepted.push(authorization);
      }
      for (const authorization of unaccepted) {
        const ex = await kit.send(probe, authorization);
        if (ex.status !== 401) continue; // auth.401.unaccepted-scheme judges the status
        await expectApplicableChallenge(kit, probe, ex, challengePresent);
        judged++;
      }
    }
    if (judged === 0)
      unmet('no credential in an unaccepted scheme was answered with 401 (see auth.401.unaccepted-scheme)', [
        'auth.401.unaccepted-scheme',
      ]);
  },
);

test(
  'request accepting several schemes without credentials → 401 with one challenge per accepted scheme',
  forRule(challengePerScheme),
  async ({ kit }) => {
    const probes = kit.probes().filter((p) => p.schemes.length > 1);
    if (probes.length === 0) lacks('endpoints.*.schemes', 'no endpoint accepting more than one scheme');
    for (const probe of probes) {
      const ex = await missing401(kit, probe);
      const challenges = parsedChallenges(ex);
      const named = words(kit, probe.schemes);
      const absent = named.filter((n) => challengesFor(challenges, n).length === 0);
      expectRule(
        absent.length === 0,
        challengePerScheme,
        ex,
        `challenges for ${named.join(', ')}`,
        `challenges for ${schemesOf(challenges)} (missing ${absent.join(', ')})`,
      );
    }
  },
);

test('each 401 challenge with a realm → realm is a quoted-string', forRule(realmQuoted), async ({ kit }) => {
  const probes = kit.probes();
  if (probes.length === 0) lacks('endpoints.protected', 'no protected request declared');
  let realms = 0;
  for (const probe of probes) {
    const ex = await missing401(kit, probe);
    for (const challenge of parsedChallenges(ex)) {
      for (const p of challenge.params.filter((x) => x.name.toLowerCase() === 'realm')) {
        realms++;
        expectRule(
          p.quoted,
          realmQuoted,
          ex,
          `${challenge.scheme} realm="…" (quoted-string)`,
          `${challenge.scheme} realm=${p.value} (token)`,
        );
      }
    }
  }
  if (realms === 0) unmet('no challenge carried a realm parameter');
});

/** A 401's Basic challenges, or a skip when the target sent none. */
async function basicChallenges(kit: Kit): Promise<{ ex: Exchange; basic: Challenge[] }> {
  const probe = kit.probeFor('basic');
  const ex = await missing401(kit, probe);
  const basic = challengesFor(parsedChallenges(ex), 'Basic');
  if (basic.length === 0)
    unmet('the 401 carries no Basic challenge (see auth.401.challenge-per-scheme)', [
      'auth.401.challenge-per-scheme',
    ]);
  return { ex, basic };
}

test(
  'request accepting Basic without credentials → the Basic challenge carries realm',
  forRule(basicRealm),
  async ({ kit }) => {
    const { ex, basic } = await basicChallenges(kit);
    for (const c of basic) {
      expectRule(
        param(c, 'realm') !== undefined,
        basicRealm,
        ex,
        'Basic realm="…"',
        `Basic challenge without realm: ${c.params.map((p) => p.name).join(', ') || '(no parameters)'}`,
      );
    }
  },
);

test(
  'request accepting Basic without credentials → a charset in the Basic challenge is "UTF-8"',
  forRule(basicCharset),
  async ({ kit }) => {
    const { ex, basic } = await basicChallenges(kit);
    for (const c of basic) {
      const charset = param(c, 'charset');
      // RFC 7617 §2.1: "The only allowed value is "UTF-8"; it is to be matched case-insensitively".
      expectRule(
        charset === undefined || charset.toLowerCase() === 'utf-8',
        basicCharset,
        ex,
        'no charset, or charset="UTF-8"',
        `charset="${charset}"`,
      );
    }
  },
);

/** The Bearer challenges of a response, or a skip. */
function bearerChallenges(ex: Exchange): Challenge[] {
  const bearer = challengesFor(parsedChallenges(ex), 'Bearer');
  if (bearer.length === 0) unmet(`the ${ex.status} carries no Bearer challenge`);
  return bearer;
}

test(
  'request accepting Bearer without credentials → the Bearer challenge carries no error',
  forRule(bearerMissingNoError),
  async ({ kit }) => {
    const ex = await missing401(kit, kit.probeFor('bearer'));
    for (const c of bearerChallenges(ex)) {
      expectRule(
        param(c, 'error') === undefined,
        bearerMissingNoError,
        ex,
        'Bearer challenge without error',
        `Bearer error="${param(c, 'error')}"`,
      );
    }
  },
);

test(
  'request accepting Bearer with a token signed by an unknown key → 401 with Bearer error="invalid_token"',
  forRule(bearerInvalidToken),
  async ({ kit }) => {
    const ex = await kit.send(kit.probeFor('bearer'), kit.credentials.bearer(await unknownKeyToken(kit)));
    if (ex.status !== 401)
      unmet(`the refused token was answered ${ex.status}, not 401 (see auth.401.invalid-bearer)`, [
        'auth.401.invalid-bearer',
      ]);
    const errors = bearerChallenges(ex).map((c) => param(c, 'error'));
    expectRule(
      errors.includes('invalid_token'),
      bearerInvalidToken,
      ex,
      'Bearer error="invalid_token"',
      `Bearer error=${errors.map((e) => (e === undefined ? '(none)' : `"${e}"`)).join(', ')}`,
    );
  },
);

/** RFC 6750 §3.1: each error code and the status it comes with. */
const BEARER_ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
};

test(
  'Bearer requests refused for different reasons → each Bearer error code matches its status',
  forRule(bearerErrorStatus),
  async ({ kit }) => {
    const probe = kit.probeFor('bearer');
    const stimuli: {
      label: string;
      authorization?: string;
      probe: Pick<Probe, 'method' | 'path' | 'json'>;
    }[] = [
      { label: 'no credentials', probe },
      {
        label: 'a token signed by an unknown key',
        authorization: kit.credentials.bearer(await unknownKeyToken(kit)),
        probe,
      },
      { label: 'the scheme without a token', authorization: kit.credentials.raw('bearer', ''), probe },
      {
        label: 'a token with a space inside',
        authorization: kit.credentials.raw('bearer', 'abc def'),
        probe,
      },
    ];
    const admin = kit.endpoint('admin');
    const user = admin?.schemes?.includes('bearer') ? await kit.authorization('user', 'bearer') : undefined;
    if (admin && user)
      stimuli.push({
        label: 'a user token on the admin path',
        authorization: user,
        probe: { method: admin.method ?? 'GET', path: admin.path },
      });
    let codes = 0;
    for (const s of stimuli) {
      const ex = await kit.send(s.probe, s.authorization);
      const parsed = parseWwwAuthenticate(headerValues(ex, 'www-authenticate')) ?? [];
      for (const c of challengesFor(parsed, 'Bearer')) {
        const code = param(c, 'error');
        if (code === undefined) continue;
        codes++;
        const due = BEARER_ERROR_STATUS[code];
        if (
          !expectRule(
            due !== undefined,
            bearerErrorStatus,
            ex,
            'error one of invalid_request, invalid_token, insufficient_scope',
            `error="${code}" for ${s.label}`,
          )
        )
          continue;
        expectRule(
          due === ex.status,
          bearerErrorStatus,
          ex,
          `${statusList([due ?? 0])} with error="${code}"`,
          `status ${ex.status} with error="${code}" for ${s.label}`,
        );
      }
    }
    if (codes === 0) unmet('no Bearer challenge carried an error code');
  },
);

test(
  'GET admin path with a non-admin Bearer token → 403 with Bearer error="insufficient_scope"',
  forRule(bearerInsufficientScope),
  async ({ kit }) => {
    const admin = need(kit.endpoint('admin'), 'endpoints.admin', 'no admin path');
    if (!admin.schemes?.includes('bearer'))
      lacks('endpoints.admin.schemes', 'the admin path does not accept Bearer');
    const ex = await kit.send(
      { method: admin.method ?? 'GET', path: admin.path },
      await kit.auth('user', 'bearer'),
    );
    if (ex.status !== 403)
      unmet(
        `the user token on the admin path was answered ${ex.status}, not 403 (see authz.403.lacking-role)`,
        ['authz.403.lacking-role'],
      );
    // A 403 without the challenge breaks this rule itself, so no skip here.
    const errors = challengesFor(expectChallenges(ex, bearerInsufficientScope), 'Bearer').map((c) =>
      param(c, 'error'),
    );
    expectRule(
      errors.includes('insufficient_scope'),
      bearerInsufficientScope,
      ex,
      'Bearer error="insufficient_scope"',
      `Bearer error=${errors.map((e) => (e === undefined ? '(none)' : `"${e}"`)).join(', ')}`,
    );
  },
);
