/**
 * Declared deviations from the seed (issue #66): where the profile declares an interface that differs from the
 * seed's, the rules judge against the declaration, and every such difference is listed — in the report, the
 * summary and the signed statement — so "conformant to the declared interface" never hides what differs.
 * Read from the profile's JSON in any form (raw, resolved, redacted), like declaration.ts.
 */
import { isRecord } from '../../shared/is-record.ts';

/** Seed §4 rule 2: "A 200 response is returned when GET, POST, PUT or DELETE completes successfully." */
export const SEED_WRITE_STATUS = 200;

export interface Deviation {
  /** Where the profile declares it: `endpoints.collection.declaredStatuses.post`. */
  readonly field: string;
  /** One line: `POST answers 201 (seed §4 rule 2: 200)`. */
  readonly text: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (isRecord(v) ? v : undefined);

/** The write methods whose success status the profile may declare, in the order the report lists them. */
export const DECLARABLE_WRITES = ['post', 'put', 'patch', 'delete'] as const;
export type DeclarableWrite = (typeof DECLARABLE_WRITES)[number];

/** The success status the profile declares for `method` on its collection, else the seed's 200. */
export function declaredStatus(profile: unknown, method: DeclarableWrite): number {
  const statuses = obj(obj(obj(obj(profile)?.endpoints)?.collection)?.declaredStatuses);
  const value = statuses?.[method];
  return typeof value === 'number' ? value : SEED_WRITE_STATUS;
}

/** The method that replaces an item (collection `replaceMethod`, default PUT as the seed has it). */
export function replaceMethodOf(profile: unknown): 'PUT' | 'PATCH' {
  const value = obj(obj(obj(profile)?.endpoints)?.collection)?.replaceMethod;
  return value === 'PATCH' ? 'PATCH' : 'PUT';
}

/** Every declared deviation from the seed, in a fixed order. */
export function deviationsOf(profile: unknown): Deviation[] {
  const out: Deviation[] = [];
  const collection = obj(obj(obj(profile)?.endpoints)?.collection);
  if (collection === undefined) return out;
  if (replaceMethodOf(profile) === 'PATCH')
    out.push({
      field: 'endpoints.collection.replaceMethod',
      text: 'an item is replaced by PATCH, not PUT (seed §4: PUT)',
    });
  for (const method of DECLARABLE_WRITES) {
    const status = declaredStatus(profile, method);
    if (status !== SEED_WRITE_STATUS)
      out.push({
        field: `endpoints.collection.declaredStatuses.${method}`,
        text: `${method.toUpperCase()} answers ${status} (seed §4 rule 2: ${SEED_WRITE_STATUS})`,
      });
  }
  return out;
}
