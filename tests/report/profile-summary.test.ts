/**
 * The report's summary of the profile (specs/report/profile-summary.ts) fits the published schema whatever
 * credential kinds the profile's identities use: `token` (a Bearer token fetched at run time, what
 * `gatecheck init` writes for the mock's OAuth identities) included — its absence from the schema's list made
 * `gatecheck verify` refuse every signed report of such a profile (seen in issue #71's first hour).
 */
import { expect, test } from '@playwright/test';
import { summarizeProfile } from '../../specs/report/profile-summary.ts';
import { sampleReport } from './sample-report.ts';
import { schemaErrors } from './schema.ts';

test('a profile whose identities use every credential kind, token included, is summarised within the schema', () => {
  const raw = {
    name: 'every kind',
    identities: {
      bearer: { bearer: 'x' },
      token: {
        token: { oauth2: { tokenUrl: 'http://127.0.0.1:9/token', clientId: 'a', clientSecret: 'b' } },
      },
      basic: { basic: { username: 'u', password: 'p' } },
      apikey: { apikey: 'k' },
      claims: { jwtClaims: { sub: 'alice' } },
    },
  };
  const profile = summarizeProfile(raw, 'every-kind.profile.json');
  expect(profile.identities).toEqual({
    bearer: ['bearer'],
    token: ['token'],
    basic: ['basic'],
    apikey: ['apikey'],
    claims: ['jwtClaims'],
  });
  const report = sampleReport(true);
  expect(schemaErrors({ ...report, target: { ...report.target, profile } })).toEqual([]);
});
