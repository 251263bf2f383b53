/**
 * `gatecheck check --profile <file> [--base-url <url>] [--probe]`: a profile checked without a run (issue
 * #40). It validates the file (one line naming the field, with "did you mean" for a misspelt one), lists every
 * environment variable the profile reads that is not set — all of them at once, never a value — lists the
 * rules that would run and those that would skip for data the profile lacks, and with --probe sends one GET
 * without credentials to each endpoint the profile declares, then confirms its public, protected and admin reads
 * by the target's answers (issue #69). Exit 0: ready to run; 2: the profile or its variables are not, or the
 * target's answers contradict one of its reads; 3: --probe found an endpoint that does not answer.
 */

import { readFileSync } from 'node:fs';
import { notApplicable } from '../specs/declaration/applicability.ts';
import { declarationOf } from '../specs/declaration/declaration.ts';
import { checkReachable } from '../specs/lib/reachability.ts';
import { envReferences } from '../specs/profile/env-secrets.ts';
import { ProfileError, parseProfile } from '../specs/profile/load.ts';
import type { Profile } from '../specs/profile/types.ts';
import { declarationReport } from '../specs/report/build.ts';
import { loadCatalogue } from '../specs/report/catalogue-source.ts';
import { displayPath } from '../specs/report/text.ts';
import type { Rule } from '../specs/rules/types.ts';
import { baseUrlOf, type CheckOptions } from './args.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { PROBE_LIMIT, Prober } from './init/probe.ts';
import { verifyProfile } from './init/verify-endpoints.ts';
import type { Io } from './outcome.ts';
import { declaredUrls } from './target.ts';

/** The profile's JSON, or ProfileError naming the file. */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ProfileError(file, code === 'ENOENT' ? 'does not exist (ENOENT)' : `cannot be read (${code})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ProfileError(file, `is not valid JSON (${(e as Error).message})`);
  }
}

/**
 * Whether the profile holds what a rule's `needs` names (specs/rules/: written for people): a dotted path,
 * `*` for any key, `(…)` a remark; alternatives joined by `|`, `/` or `or` (a bare word replaces the first
 * one's last step: `endpoints.public | protected`), parts that are all needed by `+`.
 */
export function holds(profile: unknown, need: string): boolean {
  const alternatives = need
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .split(/\s+(?:\||\/|or)\s+/);
  const first = alternatives[0] ?? '';
  const stem = first.slice(0, first.lastIndexOf('.') + 1);
  return alternatives.some((alternative, i) =>
    alternative
      .split(/\s*\+\s*/)
      .map((part) => part.trim())
      .every((part, _, all) =>
        holdsPath(profile, i > 0 && all.length === 1 && !part.includes('.') ? `${stem}${part}` : part),
      ),
  );
}

function holdsPath(profile: unknown, path: string): boolean {
  const steps = path.split('.');
  const visit = (value: unknown, at: number): boolean => {
    if (at === steps.length)
      return value !== undefined && value !== null && !(Array.isArray(value) && !value.length);
    if (value === null || typeof value !== 'object') return false;
    const step = steps[at] ?? '';
    const record = value as Record<string, unknown>;
    return step === '*' ? Object.values(record).some((v) => visit(v, at + 1)) : visit(record[step], at + 1);
  };
  return visit(profile, 0);
}

/**
 * The rules a run on this profile would check, those its declaration rules out (not applicable, with the
 * declaration that rules each out: specs/declaration/), and those it would skip, with what the profile lacks.
 */
export function plannedRules(
  profile: Profile,
  rules: readonly Rule[],
): {
  run: Rule[];
  notApplicable: { rule: Rule; reason: string }[];
  skip: { rule: Rule; lacks: string[] }[];
} {
  const run: Rule[] = [];
  const skip: { rule: Rule; lacks: string[] }[] = [];
  const ruledOut = notApplicable(rules, declarationOf(profile));
  const notApplicableRules: { rule: Rule; reason: string }[] = [];
  for (const rule of rules) {
    const reason = ruledOut.get(rule.id);
    if (reason !== undefined) {
      notApplicableRules.push({ rule, reason });
      continue;
    }
    const lacks = (rule.needs ?? []).filter((need) => !holds(profile, need));
    if (lacks.length) skip.push({ rule, lacks });
    else run.push(rule);
  }
  return { run, notApplicable: notApplicableRules, skip };
}

export async function runCheck(options: CheckOptions, io: Io, env = process.env): Promise<ExitCode> {
  const shown = displayPath(options.profile);
  const data = readJson(options.profile);
  // The schema first, with the variables out of the way: a bad field is the one line, as for a run.
  parseProfile(data, {
    ...env,
    ...Object.fromEntries(envReferences(data).map(({ name }) => [name, env[name] || 'set'])),
  });
  const missing = envReferences(data).filter(({ name }) => !env[name]);
  if (missing.length > 0) {
    io.err(`gatecheck: profile ${shown}: ${missing.length} environment variable(s) not set or empty:\n`);
    for (const { pointer, name } of missing) io.err(`  ${name}  (${pointer})\n`);
    return EXIT.usage;
  }
  const profile = parseProfile(data, env);
  io.out(`gatecheck: profile ${shown} is valid; every variable it reads is set\n`);

  const { rules } = await loadCatalogue();
  const planned = plannedRules(profile, rules);
  const declared = declarationReport(profile);
  io.out(`Judged as: ${declared.class}\n`);
  if (declared.deviations.length)
    io.out(`Declared deviations from the seed: ${declared.deviations.map((d) => d.text).join('; ')}\n`);
  io.out(
    `Would run ${planned.run.length} of ${rules.length} rules (each may still skip on what the target answers).\n`,
  );
  if (planned.notApplicable.length) {
    io.out(
      `Not applicable to the declared interface: ${planned.notApplicable.length} (never counted as skipped):\n`,
    );
    for (const { rule, reason } of planned.notApplicable)
      io.out(`  ${rule.id} [${rule.level}] — ${reason}\n`);
  }
  if (planned.skip.length) {
    io.out(`Would skip ${planned.skip.length}, for data the profile lacks:\n`);
    for (const { rule, lacks } of planned.skip)
      io.out(`  ${rule.id} [${rule.level}] — profile lacks ${lacks.join(', ')}\n`);
  }

  if (!options.probe) return EXIT.conformant;
  const baseUrl = baseUrlOf(
    options.baseUrl ?? profile.baseUrl,
    options.baseUrl ? '--base-url' : 'profile: /baseUrl',
  );
  if (!baseUrl) {
    io.err("gatecheck: --probe needs a target: --base-url, or the profile's baseUrl\n");
    return EXIT.usage;
  }
  const timeoutMs = profile.budget?.timeoutMs ?? 5000;
  let silent = 0;
  io.out(`Probing ${baseUrl} (one GET without credentials per declared endpoint):\n`);
  for (const url of declaredUrls({ profilePath: options.profile, profile, profileDigest: '', baseUrl })) {
    const answer = await checkReachable(url, timeoutMs);
    if (answer.reachable) io.out(`  GET ${new URL(url).pathname} → ${answer.status}\n`);
    else {
      silent++;
      io.out(`  GET ${new URL(url).pathname} → no answer: ${answer.reason}\n`);
    }
  }
  if (silent) return EXIT.unreachable;
  return confirmReads(baseUrl, data as Record<string, unknown>, env, timeoutMs, io);
}

/**
 * The profile's public, protected and admin reads checked against the target's answers (issue #69,
 * cli/init/verify-endpoints.ts): GETs only, under the base URL, paced, at most PROBE_LIMIT. A read an answer
 * contradicts makes the profile not ready to run (exit 2, as a bad profile): its checks would judge the target
 * against a pick the target itself denies.
 */
async function confirmReads(
  baseUrl: string,
  profile: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  io: Io,
): Promise<ExitCode> {
  const prober = new Prober(baseUrl, { timeoutMs });
  io.out(`Confirming the profile's reads by the target's answers (GETs only, at most ${PROBE_LIMIT}):\n`);
  const verdicts = await verifyProfile(prober, profile, env);
  for (const verdict of verdicts) {
    const outcome =
      verdict.contradiction === undefined ? 'not contradicted' : `contradicted: ${verdict.contradiction}`;
    io.out(`  ${verdict.role} read ${verdict.endpoint} — ${outcome}\n`);
    for (const answer of verdict.answers)
      io.out(`    ${answer.request} → ${answer.status ?? answer.error}\n`);
    for (const note of verdict.notes) io.out(`    note: ${note}\n`);
  }
  io.out(`  ${prober.sent.length} request(s) sent, none of them a write\n`);
  const contradicted = verdicts.filter((v) => v.contradiction !== undefined);
  if (contradicted.length === 0) return EXIT.conformant;
  io.err(
    `gatecheck: the target's answers contradict the profile's ${contradicted.map((v) => `${v.role} read (${v.endpoint})`).join(', ')}: change endpoints.${contradicted[0]?.role} (gatecheck init --probe picks the next candidate)\n`,
  );
  return EXIT.usage;
}
