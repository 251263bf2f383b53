/**
 * Registered claims of the wrong JSON type (RFC 7519 §2, §4.1), for jwt.claims.wrong-type and
 * jwt.claims.wrong-type-lenient (specs/rules/jwt-claims.ts, jwt-claim-types.ts). Labels name no value.
 */

export interface WrongTypeClaim {
  readonly label: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

/** The JSON types a NumericDate is not, each carrying `time` as well as the type can (a boolean cannot). */
function spellings(time: number): [string, unknown][] {
  return [
    ['a string', String(time)],
    ['an array', [time]],
    ['an object', { value: time }],
  ];
}

/**
 * Time claims of the wrong type carrying a time the token must be refused for: exp an hour past the leeway,
 * nbf an hour beyond it (RFC 7519 §4.1.4, §4.1.5). Read as its time, each is refused; accepted, the check was
 * skipped. `false` reads as 0 (1970) wherever a boolean is coerced: an expired exp; no boolean reads as a
 * future nbf, so none is sent.
 */
export function refusedTimes(now: number, leeway: number): WrongTypeClaim[] {
  const expired = now - leeway - 3600;
  const future = now + leeway + 3600;
  return [
    ...[...spellings(expired), ['a boolean', false] as [string, unknown]].map(([type, value]) => ({
      label: `exp as ${type} of a time past`,
      claims: { exp: value },
    })),
    // exp stays valid and after nbf, so only nbf is wrong.
    ...spellings(future).map(([type, value]) => ({
      label: `nbf as ${type} of a time to come`,
      claims: { nbf: value, exp: future + 3600 },
    })),
  ];
}

/** iss and aud of a type that names no issuer and no audience (RFC 7519 §4.1.1, §4.1.3). */
export function wrongIssuerAudience(
  issuer: string | undefined,
  audience: string | undefined,
): WrongTypeClaim[] {
  const out: WrongTypeClaim[] = [];
  if (issuer !== undefined)
    for (const [type, value] of [
      ['an array', [issuer]],
      ['an object', { iss: issuer }],
      ['a number', 1],
    ] as const)
      out.push({ label: `iss as ${type}`, claims: { iss: value } });
  if (audience !== undefined) out.push({ label: 'aud as a number', claims: { aud: 1 } });
  return out;
}

/**
 * Time claims of the wrong type carrying a time the token may have: exp ten minutes ahead, nbf a minute past,
 * iat now — each as a string, array, object, boolean (true) or null. Accepting one is leniency (PyJWT and
 * ruby-jwt read "<number>" as the number), refusing it the stricter reading: reported, never judged.
 */
export function honouredTimes(now: number): WrongTypeClaim[] {
  const times: Record<string, number> = { exp: now + 600, nbf: now - 60, iat: now };
  return Object.entries(times).flatMap(([claim, time]) =>
    [...spellings(time), ['a boolean', true] as [string, unknown], ['null', null] as [string, unknown]].map(
      ([type, value]) => ({ label: `${claim} as ${type}`, claims: { [claim]: value } }),
    ),
  );
}
