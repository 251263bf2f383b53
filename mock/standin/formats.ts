/**
 * The string and number formats the stand-in checks and makes — one table for both halves, so what it
 * generates passes what it validates (JSON Schema Validation 2020-12 §7.3; OpenAPI 3.1 §4.8.24.3 / 3.0 §4.7.24
 * "Data Types": int32, int64, float, double, byte, binary, password). Each has a check and a sample for the
 * n-th item. A format not listed is an annotation: neither checked nor made (as JSON Schema §7.2 allows).
 */

interface Format {
  readonly type: 'string' | 'number';
  readonly check: RegExp | ((value: never) => boolean);
  /** The sample for item n (1, 2, …): distinct per n where the format allows it. */
  readonly sample: (n: number) => string | number;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** RFC 4122 §4.4's layout (version 4, variant 10xx), deterministic from n. */
const uuidOf = (n: number) => `00000000-0000-4000-8000-${pad(n % 1e12, 12)}`;

export const FORMATS: Readonly<Record<string, Format>> = {
  // RFC 3339 §5.6 date-time, full-date, full-time.
  'date-time': {
    type: 'string',
    check: /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
    sample: (n) => `2030-01-${pad(((n - 1) % 28) + 1, 2)}T12:00:00Z`,
  },
  date: {
    type: 'string',
    check: /^\d{4}-\d{2}-\d{2}$/,
    sample: (n) => `2030-01-${pad(((n - 1) % 28) + 1, 2)}`,
  },
  time: {
    type: 'string',
    check: /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/,
    sample: (n) => `12:${pad(n % 60, 2)}:00Z`,
  },
  // RFC 5321 §4.1.2 Mailbox, in the common dot-atom form; example.com is RFC 2606's.
  email: { type: 'string', check: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, sample: (n) => `user${n}@example.com` },
  'idn-email': { type: 'string', check: /^[^\s@]+@[^\s@]+$/, sample: (n) => `user${n}@example.com` },
  uuid: {
    type: 'string',
    check: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    sample: uuidOf,
  },
  // RFC 3986 §3: a scheme, then anything without spaces.
  uri: {
    type: 'string',
    check: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
    sample: (n) => `https://example.com/items/${n}`,
  },
  url: {
    type: 'string',
    check: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
    sample: (n) => `https://example.com/items/${n}`,
  },
  iri: {
    type: 'string',
    check: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
    sample: (n) => `https://example.com/items/${n}`,
  },
  'uri-reference': { type: 'string', check: /^[^\s]*$/, sample: (n) => `/items/${n}` },
  // RFC 1123 §2.1 host names.
  hostname: {
    type: 'string',
    check: /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i,
    sample: (n) => `host${n}.example.com`,
  },
  'idn-hostname': { type: 'string', check: /^[^\s/]+$/, sample: (n) => `host${n}.example.com` },
  // Documentation addresses (RFC 5737, RFC 3849): data in a body, never a destination.
  ipv4: {
    type: 'string',
    check: /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/,
    sample: (n) => `192.0.2.${(n % 254) + 1}`,
  },
  ipv6: {
    type: 'string',
    check: /^[0-9a-f:.]*:[0-9a-f:.]*$/i,
    sample: (n) => `2001:db8::${(n % 65535).toString(16)}`,
  },
  // RFC 4648 §4 base64.
  byte: {
    type: 'string',
    check: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
    sample: (n) => Buffer.from(`gatecheck item ${n}`).toString('base64'),
  },
  // ISO 8601 durations (RFC 3339 Appendix A).
  duration: {
    type: 'string',
    check: /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/,
    sample: (n) => `PT${n}M`,
  },
  int32: {
    type: 'number',
    check: (v: number) => Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1,
    sample: (n) => n,
  },
  int64: { type: 'number', check: (v: number) => Number.isInteger(v), sample: (n) => n },
};

/** Whether `value` passes the format (a format not in the table passes). */
export function passesFormat(format: string | undefined, value: unknown): boolean {
  const f = format === undefined ? undefined : FORMATS[format];
  if (f === undefined) return true;
  if (f.type === 'string' && typeof value !== 'string') return true;
  if (f.type === 'number' && typeof value !== 'number') return true;
  return f.check instanceof RegExp ? f.check.test(value as string) : f.check(value as never);
}
