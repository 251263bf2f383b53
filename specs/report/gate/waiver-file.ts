/**
 * The waiver file: `{ "waivers": [ { rule, endpoint?, reason, until, ticket? } ] }` (or the bare array). A
 * waiver accepts a failing rule — `rule` an id, or an id pattern with `*` (`auth.401.*`, as --only takes it)
 * that accepts each failing rule it matches, the report listing which (issue #67) — on every endpoint or on the ones its `endpoint` (a path, or a pattern with
 * `*` for one segment and `**` for any) matches, until the end of its `until` day (UTC). `reason` and `until`
 * are required: a waiver nobody can explain or that never ends is a `--skip` by another name.
 * Every mistake is one line naming the entry and the field (the CLI exits 2 with it, before any request).
 */

import { idPattern } from '../../rules/id-pattern.ts';
import { didYouMean } from './did-you-mean.ts';
import { GateInputError } from './gate-error.ts';
import { isCalendarDate } from './today.ts';

export interface Waiver {
  readonly rule: string;
  readonly endpoint?: string;
  readonly reason: string;
  /** YYYY-MM-DD: the last day the waiver holds. */
  readonly until: string;
  readonly ticket?: string;
}

const FIELDS = new Set(['rule', 'endpoint', 'reason', 'until', 'ticket']);

function text(
  entry: Record<string, unknown>,
  field: string,
  where: string,
  required: boolean,
): string | undefined {
  const value = entry[field];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new GateInputError(`${where}.${field} must be a non-empty string${required ? ' (required)' : ''}`);
  }
  return value.trim();
}

/** Parses and checks a waiver file's JSON; `source` names it in messages, `ruleIds` is the catalogue. */
export function parseWaivers(json: string, source: string, ruleIds: readonly string[]): Waiver[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new GateInputError(`waivers ${source} is not JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { waivers?: unknown } | null)?.waivers;
  if (!Array.isArray(list)) {
    throw new GateInputError(
      `waivers ${source} must be {"waivers": [ … ]} (or an array) of {rule, reason, until}`,
    );
  }
  return list.map((item, i) => {
    const where = `waivers ${source}: waivers[${i}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item))
      throw new GateInputError(`${where} must be an object {rule, reason, until, endpoint?, ticket?}`);
    const entry = item as Record<string, unknown>;
    const unknown = Object.keys(entry).find((k) => !FIELDS.has(k));
    if (unknown !== undefined)
      throw new GateInputError(
        `${where}.${unknown} is not a waiver field (rule, endpoint, reason, until, ticket)`,
      );
    const rule = text(entry, 'rule', where, true) as string;
    if (rule.includes('*')) {
      if (!/^[\w.*-]+$/.test(rule) || !ruleIds.some(idPattern(rule)))
        throw new GateInputError(
          `${where}.rule: the pattern "${rule}" matches no rule id${didYouMean(rule.replace(/\*.*$/, ''), ruleIds)} (gatecheck --list-rules shows them)`,
        );
    } else if (!ruleIds.includes(rule)) {
      throw new GateInputError(
        `${where}.rule: unknown rule id "${rule}"${didYouMean(rule, ruleIds)} (gatecheck --list-rules shows them)`,
      );
    }
    const reason = text(entry, 'reason', where, true) as string;
    const until = text(entry, 'until', where, true) as string;
    if (!isCalendarDate(until))
      throw new GateInputError(
        `${where}.until must be a date YYYY-MM-DD (the last day it holds), got "${until}"`,
      );
    const endpoint = text(entry, 'endpoint', where, false);
    if (endpoint !== undefined && !endpoint.startsWith('/'))
      throw new GateInputError(
        `${where}.endpoint must be a path or pattern starting with "/", got "${endpoint}"`,
      );
    const ticket = text(entry, 'ticket', where, false);
    return {
      rule,
      ...(endpoint !== undefined ? { endpoint } : {}),
      reason,
      until,
      ...(ticket !== undefined ? { ticket } : {}),
    };
  });
}
