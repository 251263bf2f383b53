/**
 * The fuzz property's shapes — its target, options, statistics, one judged exchange, a failure and the
 * result — apart from the property (property.ts) and the failure report (failure.ts), which both use them.
 */
import type fc from 'fast-check';
import type { Evidence } from '../../lib/evidence.ts';
import type { Rule } from '../../rules/types.ts';
import type { Client, Outcome, WireRequest } from '../clients/types.ts';
import type { EndpointRole, FuzzRequest } from '../request.ts';
import type { Judge } from './verdict.ts';

export interface FuzzTarget {
  /** No trailing slash; paths are appended as is (a base path such as https://host/api is kept). */
  readonly baseUrl: string;
  readonly paths: Readonly<Partial<Record<EndpointRole, string>>>;
  readonly methods?: Readonly<Partial<Record<EndpointRole, string>>>;
  /** Carries every case it can send exactly (node:http, or Playwright's client). */
  readonly client: Client;
  /** Carries the rest: any octets. */
  readonly raw: Client;
}

export interface FuzzPropertyOptions {
  readonly rule: Rule;
  readonly arbitrary: fc.Arbitrary<FuzzRequest>;
  readonly judge: Judge;
  readonly target: FuzzTarget;
  /** Endpoint for cases that do not name one. */
  readonly endpoint: EndpointRole;
  readonly cases: number;
  /** The run's seed (the rule's own is derived from it) and where it came from. */
  readonly seed: number;
  readonly seedSource?: string;
  readonly concurrency: number;
  /** fast-check path of a counterexample to replay (GATECHECK_FUZZ_REPLAY). */
  readonly path?: string;
  /** Secrets to redact from the failure report, beyond those registered with specs/lib/secrets.ts. */
  readonly secrets?: readonly string[];
  readonly maxShrinkCases?: number;
  /** A finer class of a case than its kind, for the failing classes a failed rule lists (e.g. which respelling). */
  readonly classify?: (request: FuzzRequest) => string;
  /**
   * Epoch ms after which the rule sends no new case: its share of the run's wall-time budget (coverage before
   * depth — a rule that met a slow target leaves time for the rules after it). Shrinking is not cut short.
   */
  readonly deadline?: number;
  /** A small attack space, every case of it sent once before any is sampled (whole.ts); counted in `cases`. */
  readonly whole?: readonly FuzzRequest[];
}

export interface FuzzStats {
  readonly rule: string;
  readonly runSeed: number;
  readonly ruleSeed: number;
  /** Requests sent before the first failure (or in all, when none failed). */
  cases: number;
  /** Requests sent while shrinking. */
  shrinkCases: number;
  /** Requests sent after a failure to find the rule's other failing classes, and to shrink them. */
  sweepCases?: number;
  numRuns: number;
  /** Answers that said nothing about the rule (rate limiting), by reason. */
  unjudged: Record<string, number>;
  /** Answers by status (`dropped` for no response). */
  statuses: Record<string, number>;
  /** Requests by client. */
  clients: Record<string, number>;
  durationMs: number;
  /** Why the rule stopped before its share of cases (the run's budget or its time share ran out), if it did. */
  stopped?: string;
}

/** One judged request: what went out, through which client, and what came back. */
export interface Exchange {
  readonly request: FuzzRequest;
  readonly wire: WireRequest;
  readonly client: string;
  readonly outcome: Outcome;
}

export interface FuzzFailure {
  /** Multi-line, credentials redacted: seed, path, counterexample bytes, response, replay lines. */
  readonly message: string;
  readonly evidence: Evidence;
  readonly exchange: Exchange;
  readonly expected: string;
  readonly actual: string;
  readonly path: string;
  readonly numShrinks: number;
  /** Every failing class found (generator kind → answer), the counterexample's first (specs/fuzz/engine/classes.ts). */
  readonly classes?: readonly string[];
}

export interface FuzzResult {
  readonly stats: FuzzStats;
  readonly failure?: FuzzFailure;
}
