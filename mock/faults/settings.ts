/**
 * Fault-injection settings: the config file's `faults` section, the CLI flags, and the rules the control API
 * sets at run time (`PUT /__gatecheck/faults`). Validated by fixtures/schemas/mock-config.schema.json
 * (`faults`); route patterns are checked against the policy when the injector is built.
 */

import type { Switch } from '../access/exposure.ts';

/** `error`: 500 problem+json; `latency`: the answer comes `latencyMs` later; `drop`: the connection is closed without an answer. */
export type FaultKind = 'error' | 'latency' | 'drop';

export interface FaultRule {
  readonly kind: FaultKind;
  /** A policy path pattern (`/users/:id`), or `*` (default) for every route. */
  readonly route?: string;
  /** Methods the rule applies to (default all; HEAD follows GET). */
  readonly methods?: readonly string[];
  /** Chance that a matching request gets the fault, 0–1 (default 1: every one). */
  readonly probability?: number;
  /** For `latency`: the delay in milliseconds (default 1000). */
  readonly latencyMs?: number;
  /** The rule fires this many times, then stops (default: no end). */
  readonly times?: number;
}

// The fault header's switch: honoured, ignored, or honoured only on a loopback listener.
export type { Switch };

export interface FaultSettings {
  /** Whether the per-request `X-Gatecheck-Fault` header is honoured. */
  readonly header: Switch;
  /** Seed of the generator behind `probability`: the same seed and the same requests give the same faults. */
  readonly seed: number;
  readonly rules: readonly FaultRule[];
}

/** The request header that asks for a fault: `500`, `drop` or `latency=<ms>`, comma-separated. */
export const FAULT_HEADER = 'x-gatecheck-fault';

/** Upper bound on an injected delay, from any source: a stand-in must not hold connections for minutes. */
export const MAX_LATENCY_MS = 60_000;

export const DEFAULT_LATENCY_MS = 1000;

export const DEFAULT_FAULTS: FaultSettings = { header: 'loopback', seed: 1, rules: [] };

export interface FaultFile {
  readonly header?: Switch;
  readonly seed?: number;
  readonly rules?: readonly FaultRule[];
}

export function mergeFaults(base: FaultSettings, file: FaultFile | undefined): FaultSettings {
  if (file === undefined) return base;
  return {
    header: file.header ?? base.header,
    seed: file.seed ?? base.seed,
    rules: file.rules ?? base.rules,
  };
}
