/**
 * Shared verifiers (h2spec `spec/verifier.go`): each judges one Exchange against one rule and, on
 * failure, attaches `evidence.json` and throws a RuleViolation whose message carries the rule id, the
 * allowed answers, what came back, the request and a curl line to replay it — credentials redacted.
 */
import { type TestInfo, test } from '@playwright/test';
import { isSecretHeader } from '../../shared/secrets.ts';
import { EVIDENCE_ATTACHMENT, type Evidence } from '../lib/evidence.ts';
import { redactAuthorization } from '../lib/redact.ts';
import { curlLine } from '../lib/replay.ts';
import { redactText } from '../lib/secrets.ts';
import { type Challenge, parseWwwAuthenticate } from '../lib/www-authenticate.ts';
import type { Rule } from '../rules/types.ts';
import { type Exchange, headerValues } from '../wire/http.ts';
import { recordBrokenRule } from './verdict.ts';

/** A target's answer broke a rule. The reporter and the fixtures' SHOULD handling recognise this class. */
export class RuleViolation extends Error {
  readonly code = 'ERR_GATECHECK_RULE';
  constructor(
    readonly rule: Rule,
    readonly evidence: Evidence,
    message: string,
  ) {
    super(message);
    this.name = 'RuleViolation';
    // Point the report's code frame at the check that judged, not at this file.
    this.stack = this.stack
      ?.split('\n')
      .filter((line) => !/^\s+at .*[/\\]specs[/\\]lib[/\\]verify\.ts:\d+/.test(line))
      .join('\n');
  }

  /** One line for a warning annotation: `[id] expected …; got …`. */
  get summary(): string {
    return `[${this.rule.id}] expected ${this.evidence.expected}; got ${this.evidence.actual}`;
  }
}

const BODY_LIMIT = 2048;

/** Redacts every known secret and every credential this exchange sent, wherever it appears. */
export function redactFor(ex: Exchange | undefined, text: string): string {
  return redactText(text, ex?.request.headerLines);
}

function headerRecord(lines: readonly (readonly [string, string])[], ex: Exchange): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of lines) {
    const lower = name.toLowerCase();
    const shown = redactFor(ex, isSecretHeader(lower) ? redactAuthorization(value) : value);
    out[lower] = out[lower] === undefined ? shown : `${out[lower]}, ${shown}`;
  }
  return out;
}

export function buildEvidence(
  rule: Rule,
  ex: Exchange | undefined,
  expected: string,
  actual: string,
): Evidence {
  if (!ex) {
    return { rule: rule.id, expected, actual, request: { method: '', url: '', headers: {} }, replay: '' };
  }
  return {
    rule: rule.id,
    expected,
    actual,
    request: {
      method: ex.request.method,
      url: ex.request.url,
      headers: headerRecord(ex.request.headerLines, ex),
      ...(ex.request.body === undefined ? {} : { body: redactFor(ex, ex.request.body) }),
    },
    response: {
      status: ex.status,
      headers: headerRecord(ex.headerLines, ex),
      body: redactFor(ex, ex.body.slice(0, BODY_LIMIT)),
    },
    replay: redactFor(ex, curlLine(ex.request)),
  };
}

/** `401 (content-type: …; www-authenticate: …) {"title":…}` — the part of a response a reader needs. */
export function describeResponse(ex: Exchange): string {
  const shown = ['content-type', 'www-authenticate', 'allow', 'retry-after']
    .filter((h) => ex.headers[h] !== undefined)
    .map((h) => `${h}: ${ex.headers[h]}`);
  const body = ex.body.length > 300 ? `${ex.body.slice(0, 300)}…` : ex.body;
  const text = `${ex.status}${shown.length ? ` (${shown.join('; ')})` : ''}${body ? ` ${body.replace(/\s+/g, ' ')}` : ''}`;
  return redactFor(ex, text);
}

/**
 * Records a violation of `rule`: attaches the evidence, then, by the rule's level (docs/design.md "The suite's
 * rules"), throws a RuleViolation (MUST; SHOULD under GATECHECK_STRICT=1) or lets the test go on with a
 * `warning` (SHOULD) or `observation` (INFO) annotation. `expected` says what the rule allows, `actual`
 * what came back.
 */
export function fail(rule: Rule, ex: Exchange | undefined, expected: string, actual: string): void {
  const evidence = buildEvidence(rule, ex, expected, actual);
  const lines = ex
    ? [
        `  request:  ${ex.request.method} ${ex.request.url}`,
        `  response: ${describeResponse(ex)}`,
        `  replay:   ${evidence.replay}`,
      ]
    : [];
  failWithEvidence(rule, evidence, lines);
}

/**
 * Like `fail`, with evidence built earlier (an observer's first offending response, specs/observe/) and the
 * lines that describe it in the error message.
 */
export function failWithEvidence(rule: Rule, evidence: Evidence, details: readonly string[]): void {
  const { expected, actual } = evidence;
  const info = currentTest();
  info?.attachments.push({
    name: EVIDENCE_ATTACHMENT,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(evidence, null, 2)),
  });
  const summary = `[${rule.id}] expected ${expected}; got ${actual}`;
  if (info && !recordBrokenRule(info, rule.level, summary)) return;
  const lines = [
    `[${rule.id}] ${rule.level}: ${rule.requirement}`,
    `  expected: ${expected}`,
    `  actual:   ${actual}`,
    ...details,
  ];
  throw new RuleViolation(rule, evidence, lines.join('\n'));
}

/** Records a violation of the rule unless `condition` holds; returns `condition`. */
export function expectRule(
  condition: boolean,
  rule: Rule,
  ex: Exchange | undefined,
  expected: string,
  actual: string | (() => string),
): boolean {
  if (!condition) fail(rule, ex, expected, typeof actual === 'function' ? actual() : actual);
  return condition;
}

/** The running test's info, or undefined outside a test (unit tests of the verifiers). */
function currentTest(): TestInfo | undefined {
  try {
    return test.info();
  } catch {
    return undefined;
  }
}

export function statusList(allowed: readonly number[]): string {
  if (allowed.length <= 1) return `status ${allowed[0] ?? '(none)'}`;
  return `status ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
}

/** The status is one of `allowed` (every answer the RFCs leave open is listed by the rule). */
export function expectStatus(
  ex: Exchange,
  allowed: readonly number[],
  rule: Rule,
  context?: string,
): boolean {
  return expectRule(
    allowed.includes(ex.status),
    rule,
    ex,
    `${statusList(allowed)}${context ? ` ${context}` : ''}`,
    `status ${ex.status}`,
  );
}

/**
 * The response carries a `WWW-Authenticate` that parses under RFC 9110 §11.6.1 with at least one
 * challenge; returns the challenges ([] after a violation a SHOULD/INFO rule let through).
 */
export function expectChallenges(ex: Exchange, rule: Rule): Challenge[] {
  const values = headerValues(ex, 'www-authenticate');
  if (
    !expectRule(
      values.length > 0,
      rule,
      ex,
      'a WWW-Authenticate header field',
      'no WWW-Authenticate header field',
    )
  ) {
    return [];
  }
  const parsed = parseWwwAuthenticate(values);
  if (
    !expectRule(
      parsed !== undefined,
      rule,
      ex,
      'WWW-Authenticate that parses as #challenge (RFC 9110 §11.6.1)',
      `unparseable WWW-Authenticate: ${values.join(' | ')}`,
    )
  ) {
    return [];
  }
  const challenges = parsed ?? [];
  expectRule(challenges.length > 0, rule, ex, 'at least one challenge', 'an empty WWW-Authenticate list');
  return challenges;
}

/** The named header is present (and, when `valid` is given, its value passes it). */
export function expectHeader(
  ex: Exchange,
  name: string,
  rule: Rule,
  valid?: { test: (value: string) => boolean; expected: string },
): string {
  const value = ex.headers[name.toLowerCase()];
  if (!expectRule(value !== undefined, rule, ex, `a ${name} header field`, `no ${name} header field`))
    return '';
  if (valid && value !== undefined) {
    expectRule(valid.test(value), rule, ex, `${name}: ${valid.expected}`, `${name}: ${value}`);
  }
  return value ?? '';
}
