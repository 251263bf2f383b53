/**
 * Decides, per request, whether to misbehave — so a developer can test a client's handling of 500s, slow
 * answers and dropped connections (WireMock's faults, for this interface). Three sources, checked in order:
 *  1. the `X-Gatecheck-Fault` request header (`500`, `drop`, `latency=<ms>`, comma-separated), only when
 *     enabled (by default only on a loopback listener);
 *  2. the rules set through the control API (they replace the configured ones until reset);
 *  3. the configured rules (`faults.rules`), each with a probability drawn from a seeded generator.
 * Latency adds up and delays whatever answer follows; `error` (500) and `drop` end the request.
 */

import type { Route, Router } from '../routing/router.ts';
import { seededRandom } from './random.ts';
import {
  DEFAULT_LATENCY_MS,
  type FaultKind,
  type FaultRule,
  type FaultSettings,
  MAX_LATENCY_MS,
} from './settings.ts';

export interface FaultDecision {
  /** Milliseconds to wait before answering (0: none). */
  readonly latencyMs: number;
  /** How the request ends: a 500, a dropped connection, or (undefined) as it would have. */
  readonly end: 'error' | 'drop' | undefined;
  /** Where the fault came from, for the 500's detail and the journal: `X-Gatecheck-Fault`, `faults.rules[0]`… */
  readonly source: string;
}

/** A header value the mock cannot read: answered 400 so the developer sees the typo. */
export interface FaultHeaderError {
  readonly invalid: string;
}

interface ActiveRule {
  readonly rule: FaultRule;
  readonly where: string;
  /** Undefined: matches every route. */
  readonly route: string | undefined;
  readonly methods: ReadonlySet<string> | undefined;
  readonly probability: number;
  /** Firings left; Infinity when the rule has no `times`. */
  left: number;
}

export interface FaultStatus {
  readonly header: boolean;
  readonly seed: number;
  /** The rules in force, with the firings left for those that have `times`. */
  readonly rules: ReadonlyArray<FaultRule & { readonly left?: number; readonly source: string }>;
}

export interface FaultInjector {
  /** Whether `X-Gatecheck-Fault` is honoured (resolved: the loopback default already applied). */
  readonly headerEnabled: boolean;
  /** True when no rule is in force: only the header can cause a fault (the hot path checks this first). */
  readonly idle: boolean;
  decide(
    route: Route,
    method: string,
    header: string | undefined,
  ): FaultDecision | FaultHeaderError | undefined;
  /** Control API: replaces the rules in force. Throws TypeError naming the bad field. */
  setRules(rules: readonly FaultRule[]): void;
  /** Control API: no rule in force (the header still works when enabled). */
  clear(): void;
  /** Back to the configured rules, the generator reseeded. */
  reset(): void;
  status(): FaultStatus;
}

export function createFaultInjector(
  settings: FaultSettings,
  headerEnabled: boolean,
  router: Router,
): FaultInjector {
  const patterns = new Set(router.routes.map((route) => route.pattern));
  const configured = settings.rules.map((rule, i) => compileRule(rule, `faults.rules[${i}]`, patterns));
  let rules: ActiveRule[] = configured.map((r) => ({ ...r }));
  let random = seededRandom(settings.seed);

  return {
    headerEnabled,
    get idle() {
      return rules.length === 0;
    },
    decide(route, method, header) {
      let latencyMs = 0;
      let source = '';
      if (header !== undefined) {
        const asked = parseFaultHeader(header);
        if ('invalid' in asked) return asked;
        if (asked.end !== undefined) return asked;
        latencyMs = asked.latencyMs;
        source = asked.source;
      }
      const as = method === 'HEAD' ? 'GET' : method;
      for (const active of rules) {
        if (active.left <= 0) continue;
        if (active.route !== undefined && active.route !== route.pattern) continue;
        if (active.methods !== undefined && !active.methods.has(as)) continue;
        if (active.probability < 1 && random() >= active.probability) continue;
        active.left--;
        source = source === '' ? active.where : `${source}, ${active.where}`;
        if (active.rule.kind === 'latency') {
          latencyMs = Math.min(MAX_LATENCY_MS, latencyMs + (active.rule.latencyMs ?? DEFAULT_LATENCY_MS));
          continue;
        }
        return { latencyMs, end: active.rule.kind, source };
      }
      return latencyMs > 0 ? { latencyMs, end: undefined, source } : undefined;
    },
    setRules(next) {
      rules = next.map((rule, i) => compileRule(rule, `rules[${i}]`, patterns));
    },
    clear() {
      rules = [];
    },
    reset() {
      rules = configured.map((r) => ({ ...r }));
      random = seededRandom(settings.seed);
    },
    status() {
      return {
        header: headerEnabled,
        seed: settings.seed,
        rules: rules.map((r) => ({
          ...r.rule,
          source: r.where,
          ...(Number.isFinite(r.left) ? { left: r.left } : {}),
        })),
      };
    },
  };
}

const KINDS: ReadonlySet<FaultKind> = new Set(['error', 'latency', 'drop']);

function compileRule(rule: FaultRule, where: string, patterns: ReadonlySet<string>): ActiveRule {
  if (!KINDS.has(rule.kind)) throw new TypeError(`${where}.kind: must be one of error, latency, drop`);
  const route = rule.route === undefined || rule.route === '*' ? undefined : rule.route;
  if (route !== undefined && !patterns.has(route)) {
    throw new TypeError(
      `${where}.route: the policy has no route ${route} (routes: ${[...patterns].join(', ')}, or *)`,
    );
  }
  const probability = rule.probability ?? 1;
  if (!(probability >= 0 && probability <= 1))
    throw new TypeError(`${where}.probability: must be from 0 to 1`);
  const latency = rule.latencyMs ?? DEFAULT_LATENCY_MS;
  if (!Number.isInteger(latency) || latency < 0 || latency > MAX_LATENCY_MS) {
    throw new TypeError(`${where}.latencyMs: must be an integer from 0 to ${MAX_LATENCY_MS}`);
  }
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 1)) {
    throw new TypeError(`${where}.times: must be an integer ≥ 1`);
  }
  return {
    rule,
    where,
    route,
    methods: rule.methods === undefined ? undefined : new Set(rule.methods.map((m) => m.toUpperCase())),
    probability,
    left: rule.times ?? Number.POSITIVE_INFINITY,
  };
}

const HEADER_SOURCE = 'X-Gatecheck-Fault';

/**
 * `X-Gatecheck-Fault = fault *( OWS "," OWS fault )`, `fault = "500" / "error" / "drop" / "latency=" 1*6DIGIT`
 * (case-insensitive). Several latencies add up; the first `500` or `drop` ends the list.
 */
export function parseFaultHeader(value: string): FaultDecision | FaultHeaderError {
  let latencyMs = 0;
  for (const raw of value.split(',')) {
    const token = raw.trim().toLowerCase();
    if (token === '500' || token === 'error') return { latencyMs, end: 'error', source: HEADER_SOURCE };
    if (token === 'drop') return { latencyMs, end: 'drop', source: HEADER_SOURCE };
    const latency = /^latency=(\d{1,6})$/.exec(token);
    if (latency === null) {
      return {
        invalid: `${HEADER_SOURCE}: expected 500, drop or latency=<ms> (comma-separated), got "${token.slice(0, 40)}"`,
      };
    }
    latencyMs = Math.min(MAX_LATENCY_MS, latencyMs + Number(latency[1]));
  }
  return { latencyMs, end: undefined, source: HEADER_SOURCE };
}
