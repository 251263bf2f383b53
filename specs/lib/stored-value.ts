/**
 * Whether an item read back holds what a write sent (specs/rules/json-values.ts request.json-value.stored):
 * every member sent, with the value sent, as JSON.parse reads both — numbers as IEEE 754 doubles (RFC 8259
 * §6), so 12345678901234567890 read back as 12345678901234567000 is the same number, and 1e400 (Infinity)
 * read back as null is not. Members the server adds (an `id`, timestamps) are its own business; inside a
 * member, objects must have exactly the names sent. Names are compared as own properties, so a `__proto__`
 * member is a member like any other.
 *
 * A top-level member absent from the item read back was dropped, not changed: a target whose schema drops
 * the members it does not declare (a validation whitelist) keeps what it keeps unchanged. Dropped members are
 * judged only for a target seen keeping undeclared members (`dropped: 'judged'`); else they are left to the
 * caller to report (`droppedMembers`).
 */
import { isRecord } from '../../shared/is-record.ts';

/** Members a server assigns itself: a value sent for them need not be kept. */
const ASSIGNED = new Set(['id']);

/** JSON.stringify, shortened for messages (Infinity and -0 spelled out, which JSON cannot). */
function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Object.is(value, -0)) return '-0';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The first difference between a sent value and the stored one, as `at: sent … stored …`; undefined if none. */
function difference(sent: unknown, stored: unknown, at: string): string | undefined {
  if (typeof sent === 'number' && typeof stored === 'number')
    // -0 and 0 are one JSON number; NaN cannot be sent.
    return sent === stored ? undefined : `${at}: sent ${shown(sent)}, stored ${shown(stored)}`;
  if (Array.isArray(sent)) {
    if (!Array.isArray(stored) || stored.length !== sent.length)
      return `${at}: sent ${shown(sent)}, stored ${shown(stored)}`;
    for (let i = 0; i < sent.length; i++) {
      const d = difference(sent[i], stored[i], `${at}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (isRecord(sent)) {
    if (!isRecord(stored)) return `${at}: sent ${shown(sent)}, stored ${shown(stored)}`;
    const names = Object.keys(sent);
    const extra = Object.keys(stored).find((name) => !Object.hasOwn(sent, name));
    if (extra !== undefined) return `${at}: stored a member "${extra}" that was not sent`;
    return members(sent, stored, names, at);
  }
  return sent === stored ? undefined : `${at}: sent ${shown(sent)}, stored ${shown(stored)}`;
}

function members(
  sent: Record<string, unknown>,
  stored: Record<string, unknown>,
  names: readonly string[],
  at: string,
  skipDropped = false,
): string | undefined {
  for (const name of names) {
    const where = `${at}${at === '' ? '' : '.'}${JSON.stringify(name)}`;
    if (!Object.hasOwn(stored, name)) {
      if (skipDropped) continue;
      return `${where}: sent ${shown(sent[name])}, not stored`;
    }
    const d = difference(sent[name], stored[name], where);
    if (d !== undefined) return d;
  }
  return undefined;
}

/**
 * Undefined when `stored` holds one of `alternatives` (every member but the assigned ones, values equal);
 * else the first difference from the first alternative.
 */
export function storedDifference(
  alternatives: readonly Readonly<Record<string, unknown>>[],
  stored: unknown,
  dropped: 'judged' | 'ignored' = 'judged',
): string | undefined {
  let first: string | undefined;
  for (const sent of alternatives) {
    const d = isRecord(stored)
      ? members(
          sent as Record<string, unknown>,
          stored,
          Object.keys(sent).filter((name) => !ASSIGNED.has(name)),
          '',
          dropped === 'ignored',
        )
      : `stored ${shown(stored)}, not an object`;
    if (d === undefined) return undefined;
    first ??= d;
  }
  return first;
}

/** The top-level members sent (the assigned ones apart) that the item read back does not have. */
export function droppedMembers(sent: Readonly<Record<string, unknown>>, stored: unknown): string[] {
  if (!isRecord(stored)) return [];
  return Object.keys(sent).filter((name) => !ASSIGNED.has(name) && !Object.hasOwn(stored, name));
}
