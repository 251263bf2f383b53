/** 401: missing, wrong and unaccepted credentials (seed §5 rule 2; RFC 9110 §15.5.2). */
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, lacks, need, type Probe, SCHEMES, unmet } from '../kit/kit.ts';
import { unknownKeyToken, wrongApikeys, wrongBasic } from '../kit/stimuli.ts';
import type { Scheme } from '../profile/types.ts';
import {
  invalidApikey,
  invalidBasic,
  invalidBearer,
  missingCredentials,
  thenValid,
  unacceptedScheme,
} from '../rules/unauthorized.ts';
import { expectStatus } from '../verdict/verify.ts';

function protectedProbe(kit: Kit): Probe {
  const endpoint = need(kit.endpoint('protected'), 'endpoints.protected', 'no protected path');
  return {
    field: 'endpoints.protected',
    method: endpoint.method ?? 'GET',
    path: endpoint.path,
    schemes: endpoint.schemes ?? [],
    identities: ['admin', 'user'],
  };
}

test(
  'GET protected path without an Authorization header → 401',
  forRule(missingCredentials),
  async ({ kit }) => {
    const ex = await kit.send(protectedProbe(kit));
    expectStatus(ex, [401], missingCredentials);
  },
);

test(
  'each declared protected request (admin path, collection write) without credentials → 401',
  forRule(missingCredentials),
  async ({ kit }) => {
    const probes = kit.probes().filter((p) => p.field !== 'endpoints.protected');
    if (probes.length === 0) lacks('endpoints.admin', 'no protected request besides endpoints.protected');
    for (const probe of probes) {
      const ex = await kit.send(probe);
      expectStatus(ex, [401], missingCredentials, `for ${probe.method} ${probe.field}`);
    }
  },
);

test(
  'request accepting Bearer with a JWT signed by an unknown key → 401',
  forRule(invalidBearer),
  async ({ kit }) => {
    const probe = kit.probeFor('bearer');
    const ex = await kit.send(probe, kit.credentials.bearer(await unknownKeyToken(kit)));
    expectStatus(ex, [401], invalidBearer, 'for a token signed by a key the target does not trust');
  },
);

test(
  'request accepting Basic with a wrong password or an unknown user → 401',
  forRule(invalidBasic),
  async ({ kit }) => {
    const probe = kit.probeFor('basic');
    for (const { label, authorization } of wrongBasic(kit)) {
      const ex = await kit.send(probe, authorization);
      expectStatus(ex, [401], invalidBasic, `for ${label}`);
    }
  },
);

test(
  'request accepting Apikey with an unknown or altered key → 401',
  forRule(invalidApikey),
  async ({ kit }) => {
    const probe = kit.probeFor('apikey');
    for (const { label, authorization } of wrongApikeys(kit)) {
      const ex = await kit.send(probe, authorization);
      expectStatus(ex, [401], invalidApikey, `for ${label}`);
    }
  },
);

test(
  'request with valid credentials in a scheme the path does not accept → 401',
  forRule(unacceptedScheme),
  async ({ kit }) => {
    let sent = 0;
    for (const probe of kit.probes()) {
      for (const scheme of SCHEMES.filter((s: Scheme) => !probe.schemes.includes(s))) {
        const identity = probe.identities[0] ?? 'admin';
        const authorization = await kit.authorization(identity, scheme);
        if (!authorization) continue;
        const ex = await kit.send(probe, authorization);
        expectStatus(
          ex,
          [401],
          unacceptedScheme,
          `for ${kit.credentials.name(scheme)} on ${probe.field} (accepts ${probe.schemes.join(', ')})`,
        );
        sent++;
      }
    }
    if (sent === 0)
      lacks('identities', 'no credential in a scheme that some declared endpoint does not accept');
  },
);

test(
  'GET protected path with an unregistered scheme name → 401',
  forRule(unacceptedScheme),
  async ({ kit }) => {
    const ex = await kit.send(protectedProbe(kit), 'Gatecheck dW5yZWdpc3RlcmVkLXNjaGVtZQ==');
    expectStatus(ex, [401], unacceptedScheme, 'for the unregistered scheme "Gatecheck"');
  },
);

test(
  'GET protected path without credentials → 401, then with valid credentials → 200',
  forRule(thenValid),
  async ({ kit }) => {
    const probe = protectedProbe(kit);
    const first = await kit.send(probe);
    if (first.status !== 401)
      unmet(`the request without credentials answered ${first.status}, not 401 (see auth.401.missing)`, [
        'auth.401.missing',
      ]);
    let authorization: string | undefined;
    for (const scheme of probe.schemes) authorization ??= await kit.authorization('user', scheme);
    for (const scheme of probe.schemes) authorization ??= await kit.authorization('admin', scheme);
    if (!authorization) lacks('identities.user', 'no credential in a scheme endpoints.protected accepts');
    const second = await kit.send(probe, authorization);
    expectStatus(second, [200], thenValid, 'once valid credentials are sent after the 401');
  },
);
