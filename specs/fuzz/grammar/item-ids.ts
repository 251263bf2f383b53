/**
 * Item ids at and past the integer types servers store ids in (issue #37): a path segment that overflows an
 * int32, loses precision as a double, overflows an int64 or uint64, or is spelled with a sign, leading zeros,
 * an exponent or no digit at all. A server that parses the segment into its id type may throw (a 500) or wrap
 * around to another item (another item's data); the seed answers an id it does not hold with 404 (§7).
 */

export interface ItemIdProbe {
  readonly label: string;
  /** The path segment, as sent (printable ASCII: it goes out as written). */
  readonly id: string;
}

export const ITEM_ID_BOUNDARIES: readonly ItemIdProbe[] = [
  { label: '2^31 − 1 (the largest int32)', id: '2147483647' },
  { label: '2^31 (past int32)', id: '2147483648' },
  { label: '2^32 + 1 (past uint32, 1 after wrap-around)', id: '4294967297' },
  { label: '2^53 + 1 (past a double’s exact integers)', id: '9007199254740993' },
  { label: '2^63 (past int64)', id: '9223372036854775808' },
  { label: '2^64 (past uint64)', id: '18446744073709551616' },
  { label: '2^64 + 1 (1 after a uint64 wrap-around)', id: '18446744073709551617' },
  { label: 'a hundred digits', id: '1'.repeat(100) },
  { label: 'negative', id: '-1' },
  { label: '−2^63 − 1 (past int64 below)', id: '-9223372036854775809' },
  { label: 'zero', id: '0' },
  { label: 'zero-padded', id: '0000000001' },
  { label: 'with a plus sign', id: '+1' },
  { label: 'with an exponent', id: '1e3' },
  { label: 'a huge exponent', id: '1e400' },
  { label: 'a fraction', id: '1.5' },
  { label: 'hexadecimal', id: '0x10' },
  { label: 'non-numeric', id: 'gatecheck-no-such-item' },
];

/** The integer a segment spells exactly (sign, leading zeros allowed), or undefined. */
function exactInteger(text: string): bigint | undefined {
  return /^[+-]?\d+$/.test(text) ? BigInt(text) : undefined;
}

/**
 * Whether an item whose id is `returned` is the one `requested` asked for: the same text, or the same integer
 * (`0000000001` and `1`); a wrapped or rounded id (2^64 + 1 → 1, 2^53 + 1 → 2^53) is another item.
 */
export function sameItem(requested: string, returned: string): boolean {
  if (requested === returned) return true;
  const a = exactInteger(requested);
  const b = exactInteger(returned);
  return a !== undefined && b !== undefined && a === b;
}
