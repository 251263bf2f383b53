/** A JSON object: not null, not an array (RFC 8259 §4). The one test the profile, statement and init walks share. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
