/**
 * Credentials one step off a valid one (docs/rules.md, `auth.boundary.*`): taken from the profile's valid
 * credentials, for each scheme some declared request accepts, and changed in one way a lenient comparison
 * lets through. Labels say what changed, never the secret; every changed value is registered for redaction.
 */

import { rememberSecrets } from '../lib/secrets.ts';
import type { CredentialMaker } from '../profile/credential-maker.ts';
import type { Scheme } from '../profile/types.ts';
import { type IdentityName, type Kit, type Probe, SCHEMES } from './kit.ts';

/** A valid secret in one scheme: the request it is good for, and how to build a header from a variant. */
export interface ValidSecret {
  readonly scheme: Scheme;
  readonly identity: IdentityName;
  readonly probe: Probe;
  /** The password (Basic), token (Bearer) or key (Apikey). */
  readonly secret: string;
  /** The Basic user-id; undefined for the other schemes. */
  readonly username?: string;
  /** The target's credential maker, for variants that change more than the secret. */
  readonly credentials: CredentialMaker;
  /** The Authorization value carrying `secret` changed to `variant`. */
  readonly build: (variant: string) => string;
}

export interface Variant {
  readonly label: string;
  readonly authorization: string;
}

/** The secret of `identity` in `scheme`, as the profile gives it (Bearer: its token, else a minted one). */
async function secretOf(kit: Kit, identity: IdentityName, scheme: Scheme): Promise<string | undefined> {
  const creds = kit.identity(identity);
  if (scheme === 'basic') return creds?.basic?.password;
  if (scheme === 'apikey') return creds?.apikey;
  return kit.bearerToken(identity);
}

/** One valid secret per scheme that some declared request accepts from an identity holding it. */
export async function validSecrets(kit: Kit): Promise<ValidSecret[]> {
  const out: ValidSecret[] = [];
  for (const scheme of SCHEMES) {
    found: for (const probe of kit.probes()) {
      if (!probe.schemes.includes(scheme)) continue;
      for (const identity of probe.identities) {
        const secret = await secretOf(kit, identity, scheme);
        if (!secret) continue;
        const username = scheme === 'basic' ? kit.identity(identity)?.basic?.username : undefined;
        const build = (variant: string) => kit.credentials.under(scheme, variant, username);
        out.push({
          scheme,
          identity,
          probe,
          secret,
          credentials: kit.credentials,
          ...(username === undefined ? {} : { username }),
          build,
        });
        break found;
      }
    }
  }
  return out;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Another character in the same place. Inside the base64url alphabet the replacement differs in the
 * sextet's top bit, so even the last character of a base64url signature decodes to other bytes
 * (RFC 4648 §5: its low bits may be padding a lenient decoder drops).
 */
export function changedCharacter(c: string): string {
  const index = BASE64URL.indexOf(c);
  if (index !== -1) return BASE64URL[index ^ 32] as string;
  return c === 'A' ? 'B' : 'A';
}

export function changedAt(secret: string, at: number): string {
  return `${secret.slice(0, at)}${changedCharacter(secret.charAt(at))}${secret.slice(at + 1)}`;
}

/** Upper case to lower and lower to upper; characters without case stay. */
export function swappedCase(secret: string): string {
  return [...secret].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

function variants(valid: ValidSecret, changes: readonly (readonly [string, string])[]): Variant[] {
  const out = changes
    .filter(([, value]) => value !== valid.secret)
    .map(([label, value]) => ({ label, authorization: valid.build(value), value }));
  rememberSecrets(out.map((v) => v.value));
  return out.map(({ label, authorization }) => ({ label, authorization }));
}

export function emptyVariants(valid: ValidSecret): Variant[] {
  return variants(valid, [[`an empty ${valid.scheme === 'basic' ? 'password' : 'credential'}`, '']]);
}

export function prefixVariants(valid: ValidSecret): Variant[] {
  const { secret } = valid;
  const lengths = [...new Set([secret.length - 1, Math.ceil(secret.length / 2), 1])].filter(
    (n) => n > 0 && n < secret.length,
  );
  return variants(
    valid,
    lengths.map((n) => [`its first ${n} of ${secret.length} characters`, secret.slice(0, n)]),
  );
}

export function suffixVariants(valid: ValidSecret): Variant[] {
  return variants(valid, [
    ['one character appended', `${valid.secret}x`],
    ['itself appended to itself', `${valid.secret}${valid.secret}`],
  ]);
}

export function oneCharVariants(valid: ValidSecret): Variant[] {
  const { secret } = valid;
  const places: [string, number][] = [
    ['its first character changed', 0],
    ['its middle character changed', Math.floor(secret.length / 2)],
    ['its last character changed', secret.length - 1],
  ];
  return variants(
    valid,
    places.map(([label, at]) => [label, changedAt(secret, at)]),
  );
}

export function caseVariants(valid: ValidSecret): Variant[] {
  return variants(valid, [['its letter case inverted', swappedCase(valid.secret)]]);
}

/** Basic: spaces inside the base64 payload (RFC 7617 §2); Bearer, Apikey: whitespace and a word after it. */
export function whitespaceVariants(valid: ValidSecret): Variant[] {
  if (valid.scheme !== 'basic') {
    return variants(valid, [
      ['a space and another word after it', `${valid.secret} x`],
      ['a tab and another word after it', `${valid.secret}\tx`],
    ]);
  }
  const username = valid.username ?? '';
  const out = [
    {
      label: 'a space before the user-id inside the payload',
      authorization: valid.credentials.basic(` ${username}`, valid.secret),
    },
    {
      label: 'a space after the password inside the payload',
      authorization: valid.credentials.basic(username, `${valid.secret} `),
    },
  ];
  rememberSecrets([`${valid.secret} `]);
  return out;
}
