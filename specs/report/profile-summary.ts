/**
 * What the report says about the profile: enough for a reader to know what was tested and how, and
 * nothing that authenticates. Built from the raw JSON so an unusual profile still summarises.
 */

import type { ProfileSummary } from './model.ts';

type Json = Record<string, unknown>;

function obj(value: unknown): Json | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** RFC 3986 §3.2.1: drop user information; a query string may carry a key, so it goes too. */
export function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^/@\s]*@/, '//');
  }
}

function endpointOf(
  value: unknown,
): { path: string; method?: string; schemes?: readonly string[] } | undefined {
  const e = obj(value);
  const path = str(e?.path);
  if (!e || path === undefined) return undefined;
  const method = str(e.method);
  const schemes = Array.isArray(e.schemes)
    ? e.schemes.filter((s): s is string => typeof s === 'string')
    : undefined;
  return { path, ...(method ? { method } : {}), ...(schemes ? { schemes } : {}) };
}

export function summarizeProfile(raw: unknown, source: string): ProfileSummary {
  const p = obj(raw) ?? {};
  const endpoints: Record<string, { path: string; method?: string; schemes?: readonly string[] }> = {};
  for (const [role, value] of Object.entries(obj(p.endpoints) ?? {})) {
    const endpoint = endpointOf(value);
    if (endpoint) endpoints[role] = endpoint;
  }

  const identities: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(obj(p.identities) ?? {})) {
    const creds = obj(value) ?? {};
    identities[name] = ['bearer', 'token', 'basic', 'apikey', 'jwtClaims'].filter(
      (kind) => creds[kind] !== undefined,
    );
  }

  const jwt = obj(p.jwt);
  const tls = obj(p.tls);
  const rate = obj(p.rateLimit);
  const fault = obj(p.fault);
  const budget: Record<string, number> = {};
  for (const [key, value] of Object.entries(obj(p.budget) ?? {})) {
    const n = num(value);
    if (n !== undefined) budget[key] = n;
  }

  const limit = num(rate?.limit);
  const windowSeconds = num(rate?.windowSeconds);
  const banAfter = num(rate?.banAfter);
  const issuer = str(jwt?.issuer);
  const audience = str(jwt?.audience);
  const leewaySeconds = num(jwt?.leewaySeconds);
  const faultPath = str(fault?.path);
  const faultMethod = str(fault?.method);

  return {
    name: str(p.name) ?? '(unnamed profile)',
    source,
    endpoints,
    identities,
    ...(jwt
      ? {
          jwt: {
            alg: str(jwt.alg) ?? '(unset)',
            signing: jwt.privateJwk ? 'private-jwk' : jwt.secret ? 'shared-secret' : 'none',
            publicJwk: jwt.publicJwk !== undefined,
            ...(issuer ? { issuer } : {}),
            ...(audience ? { audience } : {}),
            ...(leewaySeconds !== undefined ? { leewaySeconds } : {}),
          },
        }
      : {}),
    ...(limit !== undefined && windowSeconds !== undefined
      ? { rateLimit: { limit, windowSeconds, ...(banAfter !== undefined ? { banAfter } : {}) } }
      : {}),
    ...(faultPath !== undefined
      ? {
          fault: {
            path: faultPath,
            ...(faultMethod ? { method: faultMethod } : {}),
            headerNames: Object.keys(obj(fault?.headers) ?? {}),
          },
        }
      : {}),
    ...(Object.keys(budget).length ? { budget } : {}),
    ...(tls
      ? {
          tls: {
            ca: tls.ca !== undefined,
            clientCertificate: tls.cert !== undefined,
            insecure: tls.insecure === true,
          },
        }
      : {}),
  };
}
