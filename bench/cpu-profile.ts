/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and says where the time went: self time by function and by
 * package (node_modules/<name>, node: internals, the mock's own folders). `npm run bench -- --cpu-prof`
 * writes one per mock process into reports/bench-prof/; `tsx bench/cpu-profile.ts <file>` prints a summary.
 */

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface ProfileShare {
  readonly name: string;
  /** Share of the busy (non-idle) samples, 0–1. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Share of samples that were not idle (program + GC). */
  readonly busy: number;
  readonly byPackage: readonly ProfileShare[];
  readonly byFunction: readonly ProfileShare[];
}

/** `node_modules/jose/dist/…` → `jose`; `/mock/auth/bearer.ts` → `mock/auth`; `node:internal/…` → `node`. */
export function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : 'native';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node';
  const local = /\/(mock|bench|specs)\/([^/]+)\//.exec(url);
  if (local) return `${local[1]}/${local[2]}`;
  const file = /\/(mock|bench|specs)\/[^/]+$/.exec(url);
  return file ? `${file[1]}` : url.replace(/^file:\/\//, '');
}

/** `name file:line`, the file from node_modules/, mock/, bench/ or specs/ on (`(program)`, `writev` alone). */
export function frameName(frame: ProfileNode['callFrame']): string {
  const file = frame.url.replace(/^.*\/(node_modules|mock|bench|specs)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
}

export function summariseProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1;
  let idle = 0;
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    // Waiting for I/O is not where the time went: shares are of the busy samples.
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const pkg = packageOf(frame.url, frame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    const fn = frameName(frame);
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const busy = total - idle || 1;
  const rank = (m: Map<string, number>): ProfileShare[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, share: us / busy }));
  return {
    totalMs: total / 1000,
    busy: 1 - idle / total,
    byPackage: rank(packages),
    byFunction: rank(functions),
  };
}

export function readProfile(path: string): CpuProfile {
  return JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
}

export function formatSummary(summary: ProfileSummary): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1).padStart(5)}%`;
  return [
    `${summary.totalMs.toFixed(0)} ms sampled, ${pct(summary.busy).trim()} busy; shares of the busy time`,
    'by package:',
    ...summary.byPackage.map((s) => `  ${pct(s.share)}  ${s.name}`),
    'by function (self time):',
    ...summary.byFunction.map((s) => `  ${pct(s.share)}  ${s.name}`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of process.argv.slice(2)) {
    process.stdout.write(`${file}\n${formatSummary(summariseProfile(readProfile(file)))}\n\n`);
  }
}
