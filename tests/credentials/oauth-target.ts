/**
 * The mock as a deployment hands out credentials: HTTPS with a CA generated at start, Bearer tokens from its
 * token endpoint, and a profile holding no literal secret — every credential `{ "env": NAME }`, the values in
 * the environment the test passes to the run (docs/profile.md "A CI example").
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { ROOT } from '../helpers/run-suite.ts';

export const OAUTH_PROFILE = path.join(ROOT, 'fixtures/mock.oauth.profile.json');

type Json = Record<string, unknown>;

export interface EnvProfile {
  /** The profile as written to disk: `{ "env": … }` wherever a credential goes. */
  readonly profile: Json;
  /** The variables the run needs. */
  readonly env: Record<string, string>;
  /** Every secret value, for the scans. */
  readonly secrets: string[];
}

/** mock.oauth.profile.json with every credential moved into an environment variable. */
export function envProfile(): EnvProfile {
  const profile = JSON.parse(readFileSync(OAUTH_PROFILE, 'utf8')) as Json;
  const env: Record<string, string> = {};
  const move = (holder: Json, key: string, name: string): void => {
    const value = holder[key];
    if (value === undefined) return;
    env[name] = typeof value === 'string' ? value : JSON.stringify(value);
    holder[key] = { env: name };
  };
  for (const [name, identity] of Object.entries(profile.identities as Record<string, Json>)) {
    const upper = name.toUpperCase();
    move(identity.basic as Json, 'password', `GC_${upper}_PASSWORD`);
    move(identity, 'apikey', `GC_${upper}_APIKEY`);
    const oauth = (identity.token as Json).oauth2 as Json;
    move(oauth, 'clientSecret', `GC_${upper}_CLIENT_SECRET`);
    move(oauth, 'password', `GC_${upper}_PASSWORD`);
  }
  move(profile.jwt as Json, 'privateJwk', 'GC_JWT_PRIVATE_JWK');
  const jwk = JSON.parse(env.GC_JWT_PRIVATE_JWK as string) as Record<string, string>;
  const secrets = [
    ...Object.entries(env)
      .filter(([k]) => k !== 'GC_JWT_PRIVATE_JWK')
      .map(([, v]) => v),
    ...['d', 'p', 'q', 'dp', 'dq', 'qi'].map((m) => jwk[m] as string),
  ];
  return { profile, env, secrets };
}

/** The mock over HTTPS with its generated CA, its journal large enough to hold a whole run. */
export function startTlsMock(
  tokenLifetimeSeconds: number,
  options: { readonly limits?: boolean } = {},
): Promise<RunningMock> {
  return startMock({
    port: 0,
    tls: 'generate',
    oauth: { tokenLifetimeSeconds },
    control: { enabled: true, journalSize: 200_000 },
    // The bundled limits, which the bundled profile declares: the rate-limit rules' burst goes to /limited.
    rateLimit: { enabled: options.limits !== false },
  });
}

/** Token requests the mock answered with 200, per identity (its journal; RFC 6749 §5.1 answers). */
export async function tokenGrants(mock: RunningMock): Promise<Record<string, number>> {
  const control = mock.control as { url: string; token: string };
  const ca = readFileSync(mock.caPath as string, 'utf8');
  const text = await new Promise<string>((resolve, reject) => {
    https
      .get(
        `${control.url}/journal?status=200`,
        { ca, headers: { authorization: `Bearer ${control.token}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        },
      )
      .on('error', reject);
  });
  const { entries } = JSON.parse(text) as { entries: { path: string; identity?: string }[] };
  const out: Record<string, number> = {};
  for (const e of entries) {
    if (e.path === '/oauth/token') out[e.identity ?? '?'] = (out[e.identity ?? '?'] ?? 0) + 1;
  }
  return out;
}

/** JWTs in `text` issued by the mock's token endpoint (they carry `client_id`): fetched tokens that leaked. */
export function fetchedTokensIn(text: string): string[] {
  const out: string[] = [];
  for (const [jwt, payload] of text.matchAll(/eyJ[\w-]+\.(eyJ[\w-]+)\.[\w-]+/g)) {
    try {
      const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8')) as Json;
      if (typeof claims.client_id === 'string') out.push(jwt);
    } catch {
      // Not a JWT payload.
    }
  }
  return out;
}
