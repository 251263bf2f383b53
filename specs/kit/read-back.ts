/**
 * A write and the read that should show its effect (write.effect.read-back, specs/rules/write-effect.ts): what
 * the read shows, and a failure whose evidence holds both requests — the write with its replay line, then the
 * read — credentials redacted as in any evidence (specs/verdict/verify.ts).
 */
import { storedDifference } from '../lib/stored-value.ts';
import type { Rule } from '../rules/types.ts';
import { buildEvidence, describeResponse, failWithEvidence } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** The item a read gives, as JSON; a wrapped item (`data.id`) is read inside its wrapper. */
function itemOf(read: Exchange, idField: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(read.body);
  } catch {
    return undefined;
  }
  const wrapper = idField.split('.').slice(0, -1);
  for (const key of wrapper)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** Undefined when the 2xx read shows every member of `sent` with its value; else what it shows instead. */
export function readShows(
  read: Exchange,
  sent: Readonly<Record<string, unknown>>,
  idField: string,
): string | undefined {
  if (read.status < 200 || read.status > 299) return `status ${read.status}`;
  const wrapper = idField.split('.').slice(0, -1);
  // A wrapped sample item (`{"data": {…}}`) is compared inside its wrapper, as the read gives it.
  let inner: unknown = sent;
  for (const key of wrapper) inner = (inner as Record<string, unknown> | undefined)?.[key];
  const expected = (inner ?? sent) as Readonly<Record<string, unknown>>;
  return storedDifference([expected], itemOf(read, idField), 'judged');
}

/** Fails `rule` with the write and the read that does not show it, both in the evidence. */
export function failReadBack(
  rule: Rule,
  write: Exchange,
  read: Exchange,
  expected: string,
  actual: string,
): void {
  const writeEvidence = buildEvidence(rule, write, expected, actual);
  const readEvidence = buildEvidence(rule, read, expected, actual);
  const after = `after ${write.request.method} ${write.request.url} answered ${write.status}`;
  failWithEvidence(
    rule,
    {
      ...readEvidence,
      actual: `${actual} (${after})`,
      replay: `${writeEvidence.replay}\n${readEvidence.replay}`,
    },
    [
      `  write:    ${write.request.method} ${write.request.url} → ${describeResponse(write)}`,
      `  read:     ${read.request.method} ${read.request.url} → ${describeResponse(read)}`,
      `  replay:   ${writeEvidence.replay}`,
      `            ${readEvidence.replay}`,
    ],
  );
}
