/**
 * The date a waiver's `until` is compared with: today in UTC as YYYY-MM-DD, or GATECHECK_TODAY when set (the
 * CLI sets it once per run, so the reporter and the CLI agree across midnight; tests inject a date with it).
 */

import { ENV } from '../../../shared/env.ts';
import { GateInputError } from './gate-error.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

export function todayOf(env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): string {
  const injected = env[ENV.today]?.trim();
  if (injected) {
    if (!isCalendarDate(injected))
      throw new GateInputError(`${ENV.today} must be a date YYYY-MM-DD, got "${injected}"`);
    return injected;
  }
  return now.toISOString().slice(0, 10);
}
