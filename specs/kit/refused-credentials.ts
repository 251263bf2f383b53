/**
 * Credentials a target must refuse wherever they are sent (auth.credential.other-places,
 * specs/rules/credential-places.ts): built from the profile's own, so each is the kind of value the target's
 * checks read — a JWS whose signature no longer matches, one whose claims were raised to the admin's without
 * re-signing, an expired one, an API key one character off; and, for the admin path only, the user's own.
 */
import type { Kit } from './kit.ts';

export interface RefusedCredential {
  readonly label: string;
  readonly value: string;
  /** A valid credential of the user: refused on the admin path only. */
  readonly adminOnly: boolean;
  /** A Bearer token (RFC 6750 §2.2's form parameter carries only those). */
  readonly bearer: boolean;
}

/** One character changed, in the middle (the last base64url character may carry no bits). */
function changedAt(value: string, at: number): string {
  const c = value[at] === 'A' ? 'B' : 'A';
  return `${value.slice(0, at)}${c}${value.slice(at + 1)}`;
}

/** The JWS's claims merged with `extra`, the signature kept: a forgery (RFC 7515 §5.2). */
function withClaims(token: string, extra: Readonly<Record<string, unknown>>): string | undefined {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const raised = Buffer.from(JSON.stringify({ ...claims, ...extra })).toString('base64url');
    return `${header}.${raised}.${signature}`;
  } catch {
    return undefined;
  }
}

export async function refusedElsewhere(kit: Kit): Promise<RefusedCredential[]> {
  const out: RefusedCredential[] = [];
  const bearer = (label: string, value: string | undefined, adminOnly = false) => {
    if (value !== undefined) out.push({ label, value, adminOnly, bearer: true });
  };
  const admin = await kit.bearerToken('admin');
  const user = await kit.bearerToken('user');
  if (admin !== undefined) {
    const signature = admin.lastIndexOf('.');
    if (signature > 0 && admin.length - signature > 8)
      bearer("the admin's token with its signature changed", changedAt(admin, signature + 4));
  }
  if (user !== undefined) {
    const { sub: _sub, ...adminClaims } = kit.identity('admin')?.jwtClaims ?? { roles: ['admin'] };
    bearer("the user's token with the admin's claims, not re-signed", withClaims(user, adminClaims));
    bearer("the user's token", user, true);
  }
  const adminClaims = kit.identity('admin')?.jwtClaims;
  if (kit.mint && adminClaims) bearer('an expired token of the admin', await kit.mint.expired(adminClaims));
  const adminKey = kit.identity('admin')?.apikey;
  if (adminKey !== undefined && adminKey.length > 2)
    out.push({
      label: "the admin's API key with a character changed",
      value: changedAt(adminKey, Math.floor(adminKey.length / 2)),
      adminOnly: false,
      bearer: false,
    });
  const userKey = kit.identity('user')?.apikey;
  if (userKey !== undefined)
    out.push({ label: "the user's API key", value: userKey, adminOnly: true, bearer: false });
  return out;
}
