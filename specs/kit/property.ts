/**
 * A conformance check over generated requests (fast-check, as the fuzz phase): every example on every run,
 * then a few generated values from the run's seed, and on a failure the smallest failing value fast-check
 * shrinks to. Each value costs requests, so the count is fixed, shrinking is capped, and a value whose
 * request did not go out (a skip for the budget, no answer) ends the property: the check then skips or
 * errs as its request did, never fails on an answer it did not get (docs/design.md "A polite client").
 */
import fc from 'fast-check';
import { DEFAULT_SEED, ENV } from '../../shared/env.ts';
import { ruleSeed } from '../fuzz/engine/settings.ts';
import type { Rule } from '../rules/types.ts';
import type { Exchange } from '../wire/http.ts';

/** What one value showed wrong: the exchange it is judged on, what the rule allows, what came back. */
export interface Finding {
  readonly ex: Exchange;
  readonly expected: string;
  readonly actual: string;
}

export interface PropertyRun<T> {
  readonly rule: Rule;
  readonly arbitrary: fc.Arbitrary<T>;
  /** Sent first, on every run (fast-check's `examples`). */
  readonly examples: readonly T[];
  /** Generated values after the examples. */
  readonly generated: number;
  /** Failing candidates tried while shrinking, at most (each costs requests). */
  readonly maxShrinks?: number;
  /** Sends the value's requests; a Finding when an answer breaks the rule. */
  readonly check: (value: T) => Promise<Finding | undefined>;
}

/** A finding, with the value it was found on and how to replay the property. */
export interface PropertyFinding<T> extends Finding {
  readonly value: T;
  /** `seed 123, path "4:0"` — GATECHECK_SEED and the rule's seed line make the run repeat. */
  readonly replay: string;
}

/** The run's seed (GATECHECK_SEED, else the suite's fixed default), as the fuzz phase reads it. */
function runSeed(env: NodeJS.ProcessEnv): number {
  const text = env[ENV.seed]?.trim();
  const value = text ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) ? value | 0 : DEFAULT_SEED;
}

const DEFAULT_MAX_SHRINKS = 16;

/**
 * Runs the property; the smallest failing value's finding, or undefined when every value passed. Rethrows
 * what stopped a value's requests (a budget skip, no answer) once fast-check is done.
 */
export async function firstFinding<T>(
  run: PropertyRun<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PropertyFinding<T> | undefined> {
  const maxShrinks = run.maxShrinks ?? DEFAULT_MAX_SHRINKS;
  let stopped: { error: unknown } | undefined;
  let smallest: { value: T; finding: Finding } | undefined;
  let failures = 0;
  const property = fc.asyncProperty(run.arbitrary, async (value) => {
    // Past the cap (or after a request that did not go out) every value "passes": fast-check then reports
    // the smallest failure it had, without sending more.
    if (stopped !== undefined || failures > maxShrinks) return true;
    let finding: Finding | undefined;
    try {
      finding = await run.check(value);
    } catch (error) {
      stopped = { error };
      return true;
    }
    if (finding === undefined) return true;
    failures++;
    smallest = { value, finding };
    return false;
  });
  const seed = ruleSeed(runSeed(env), run.rule.id);
  const details = await fc.check(property, {
    seed,
    numRuns: run.examples.length + run.generated,
    examples: run.examples.map((value) => [value] as [T]),
  });
  if (stopped !== undefined) throw stopped.error;
  if (!details.failed || smallest === undefined) return undefined;
  return {
    ...smallest.finding,
    value: smallest.value,
    replay: `seed ${details.seed}, path ${JSON.stringify(details.counterexamplePath ?? '')}`,
  };
}
