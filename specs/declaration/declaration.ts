/**
 * The interface a profile declares (issue #66; docs/design.md "Applicability"): which schemes the target
 * accepts, whether its Bearer tokens are JWTs, whether it has writes and roles, how it limits and blocks. A
 * rule applies to a target only as far as this declaration allows (specs/declaration/applicability.ts), and the
 * report names the class it judged the target as (class-label.ts).
 *
 * Read from the profile's JSON as written, raw, resolved or redacted alike (an `{ "env": … }` reference or a
 * "[redacted]" credential says nothing about structure): `gatecheck verify` recomputes it from the redacted
 * profile a statement embeds, so it reads no credential's value.
 */
import { isRecord } from '../../shared/is-record.ts';
import { SCHEMES } from '../profile/credential-maker.ts';
import type { Scheme } from '../profile/types.ts';
import type { Feature } from '../rules/types.ts';

type Json = Record<string, unknown>;

export type SchemeName = Scheme;

/** RFC 9110 §9.3: the methods that change state, for "does the profile declare a write anywhere". */
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

export interface Declaration {
  /** The features the profile declares, in the Feature type's order. */
  readonly features: ReadonlySet<Feature>;
  /** The schemes any endpoint accepts. */
  readonly schemes: readonly SchemeName[];
  /** The JWS `alg` of the profile's `jwt`, when declared. */
  readonly jwtAlg?: string;
  /** Who may write (collection `writer`, default admin), when writes are declared. */
  readonly writer?: 'admin' | 'user' | 'any';
  /** The declared limits, as `60/10 s per address`. */
  readonly limits: readonly string[];
  /** The profile's `endpoints` roles present, for messages. */
  readonly endpoints: readonly string[];
}

const obj = (v: unknown): Json | undefined => (isRecord(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function schemesOf(e: Json | undefined, member = 'schemes'): SchemeName[] {
  const list = e?.[member];
  return Array.isArray(list) ? SCHEMES.filter((s) => list.includes(s)) : [];
}

function limitEntries(raw: unknown): Json[] {
  if (Array.isArray(raw)) return raw.filter(isRecord);
  return isRecord(raw) ? [raw] : [];
}

/** `60/10 s per address`, one declared limit for the class label. */
function limitLabel(entry: Json): string | undefined {
  const { limit, windowSeconds, key } = entry;
  if (typeof limit !== 'number' || typeof windowSeconds !== 'number') return undefined;
  return `${limit}/${windowSeconds} s${typeof key === 'string' ? ` per ${key}` : ''}`;
}

/** Whether the profile's `methods` map names a write method on some path. */
function declaresWriteMethod(methods: Json | undefined): boolean {
  return Object.values(methods ?? {}).some(
    (list) =>
      Array.isArray(list) &&
      list.some((m) => typeof m === 'string' && WRITE_METHODS.includes(m.toUpperCase())),
  );
}

/** The declaration of a profile (its JSON, in any of the forms above). */
export function declarationOf(profile: unknown): Declaration {
  const p = obj(profile) ?? {};
  const endpoints = obj(p.endpoints) ?? {};
  const { public: pub, protected: prot, admin, collection, methodNotAllowed } = endpoints;
  const collectionJson = obj(collection);
  const adminJson = obj(admin);
  const entries = limitEntries(p.rateLimit);

  const guarded = [obj(prot), adminJson, obj(methodNotAllowed), ...entries.map((e) => obj(e.endpoint))];
  const accepted = new Set<SchemeName>([
    ...guarded.flatMap((e) => schemesOf(e)),
    ...schemesOf(collectionJson, 'writeSchemes'),
  ]);
  const schemes = SCHEMES.filter((s) => accepted.has(s));
  const jwt = obj(p.jwt);
  const identities = obj(p.identities) ?? {};
  const blocked = obj(p.blocked);
  const clients = blocked?.clients;

  const writes = collectionJson !== undefined || declaresWriteMethod(obj(p.methods));
  const writerValue = str(collectionJson?.writer);
  const writer = writes
    ? writerValue === 'user' || writerValue === 'any'
      ? writerValue
      : 'admin'
    : undefined;
  const adminSchemes = schemesOf(adminJson);
  const writeSchemes = schemesOf(collectionJson, 'writeSchemes');

  const features = new Set<Feature>();
  for (const s of schemes) features.add(s);
  if (pub !== undefined) features.add('public');
  if (accepted.has('bearer') && jwt !== undefined) features.add('jwt');
  if (features.has('jwt') && str(jwt?.issuer) !== undefined) features.add('jwt-issuer');
  if (features.has('jwt') && str(jwt?.audience) !== undefined) features.add('jwt-audience');
  if (features.has('jwt') && !/^HS/i.test(str(jwt?.alg) ?? '')) features.add('jwt-asymmetric');
  if (writes) features.add('writes');
  if (adminJson !== undefined) features.add('admin-role');
  if (writes && writer !== 'any') features.add('write-role');
  if (Array.isArray(clients) && clients.length > 0) features.add('blocking');
  if (blocked?.closed !== undefined) features.add('closed-route');
  if (p.fault !== undefined) features.add('fault');
  if (identities.admin !== undefined && identities.user !== undefined) features.add('two-identities');
  if (guarded.some((e) => schemesOf(e).length > 1) || writeSchemes.length > 1) features.add('two-schemes');
  if (
    (features.has('admin-role') && adminSchemes.length > 1) ||
    (features.has('write-role') && writeSchemes.length > 1)
  )
    features.add('refused-two-schemes');

  const alg = str(jwt?.alg);
  return {
    features,
    schemes,
    ...(features.has('jwt') && alg !== undefined ? { jwtAlg: alg } : {}),
    ...(writer !== undefined ? { writer } : {}),
    limits: entries.map(limitLabel).filter((l): l is string => l !== undefined),
    endpoints: Object.keys(endpoints),
  };
}
