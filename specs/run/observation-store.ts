/**
 * Where observations wait for the observer verdicts (specs/observe/observers.verdict.ts): one JSON file per
 * worker process and target, in a folder per run. Playwright's workers are separate processes and the
 * verdicts run in a later project, so files are the meeting point: each worker rewrites its own file after
 * every test (one small write, not one per response), the verdicts read and merge them all.
 *
 * The run's folder is OBSERVATIONS_ENV, set by global setup (and by the mutation run); without it, a folder
 * named after the runner process (every worker's parent) in the system's temporary directory.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Evidence } from '../lib/evidence.ts';
import type { Fingerprint } from '../lib/resource-fingerprint.ts';

export const OBSERVATIONS_ENV = 'GATECHECK_OBSERVATIONS';

/** What one rule's observer saw: responses of its kind, how many were wrong, the first wrong one. */
export interface Tally {
  seen: number;
  faults: number;
  first?: { readonly at: number; readonly evidence: Evidence };
  /**
   * observed.refusal.no-resource only (refusal-resource.ts): the protected resources seen, by path, and the
   * refusals still waiting for one to be compared with; `unjudged` counts those that could not wait.
   */
  fingerprints?: Record<string, Fingerprint>;
  pending?: PendingRefusal[];
  unjudged?: number;
}

/** A refusal body waiting for a resource to compare with, its evidence built (redacted) when it was seen. */
export interface PendingRefusal {
  readonly body: string;
  /** What the request carried (specs/lib/resource-fingerprint.ts requestCarried): an echo of it is no evidence. */
  readonly request?: string;
  /** How many refusals had this body. */
  count: number;
  readonly at: number;
  readonly evidence: Evidence;
}

export type Tallies = Record<string, Tally>;

export function observationsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[OBSERVATIONS_ENV] || join(tmpdir(), `gatecheck-observations-${process.ppid}`);
}

/** The folder of one target (its base URL, hashed: a file name cannot hold a URL). */
export function targetDir(baseUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha256').update(baseUrl.replace(/\/+$/, '')).digest('hex').slice(0, 16);
  return join(observationsDir(env), key);
}

/** Writes this process's tallies of a target (write then rename: a reader never sees half a file). */
export function writeTallies(dir: string, tallies: Tallies): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(tallies));
  renameSync(`${file}.tmp`, file);
}

/** Every worker's tallies of a target, merged: counts added, the earliest first fault kept. */
export function readTallies(dir: string): Tallies {
  const out: Tallies = {};
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return out;
  }
  for (const file of files) {
    const tallies = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Tallies;
    for (const [rule, t] of Object.entries(tallies)) {
      const merged = out[rule] ?? { seen: 0, faults: 0 };
      merged.seen += t.seen;
      merged.faults += t.faults;
      if (t.first && (!merged.first || t.first.at < merged.first.at)) merged.first = t.first;
      if (t.fingerprints) merged.fingerprints = { ...t.fingerprints, ...merged.fingerprints };
      if (t.pending) merged.pending = [...(merged.pending ?? []), ...t.pending];
      if (t.unjudged) merged.unjudged = (merged.unjudged ?? 0) + t.unjudged;
      out[rule] = merged;
    }
  }
  return out;
}
