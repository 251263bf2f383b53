/**
 * JWS Compact Serialization (RFC 7515 §7.1) for building and taking apart tokens:
 *
 *   BASE64URL(UTF8(JWS Protected Header)) "." BASE64URL(JWS Payload) "." BASE64URL(JWS Signature)
 *
 * base64url is RFC 7515 §2: RFC 4648 §5 alphabet, trailing "=" omitted.
 */

export function b64url(data: Buffer | Uint8Array | string): string {
  return Buffer.from(data).toString('base64url');
}

export function encodeJson(value: unknown): string {
  return b64url(JSON.stringify(value));
}

export interface DecodedJws {
  readonly header: Readonly<Record<string, unknown>>;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly segments: readonly [string, string, string];
}

const SEGMENT = /^[A-Za-z0-9_-]*$/;

function decodeObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Header and claims of a three-segment JWS whose first two segments are JSON objects; else undefined. */
export function decodeJws(token: string): DecodedJws | undefined {
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every((s) => SEGMENT.test(s))) return undefined;
  const [h, p, s] = segments as [string, string, string];
  const header = decodeObject(h);
  const payload = decodeObject(p);
  if (!header || !payload) return undefined;
  return { header, payload, segments: [h, p, s] };
}
