/**
 * The caller's own record (`GET /user` of Gitea and RealWorld, `/users/me`, `/me`, Mastodon's
 * `/accounts/verify_credentials`): answered for the identity the request's credentials proved — its user name
 * in the members that name a user, its address at example.com in an e-mail member, whether it is the
 * administrator in the members that say so (`is_admin`, `site_admin`, `admin`, `isAdmin`, `is_superuser`,
 * `is_staff`), and in a token member (a login's answer, login.ts) a credential the mock accepts for it.
 */
import type { Operation } from '../../cli/init/operations.ts';
import { isRecord } from '../../shared/is-record.ts';
import { ADMIN_ROLE, type StandInIdentity } from './identities.ts';

type Json = Record<string, unknown>;

const ME =
  /^(me|user|self|account|whoami|current|current_?user|currentuser|myself|verify_credentials|userinfo)$/i;

/** A read of the caller's own record: no path parameter, and its last segment says so. */
export function isCurrentUser(op: Operation): boolean {
  if (op.method !== 'get' || op.path.includes('{')) return false;
  const last =
    op.path
      .split('/')
      .filter(Boolean)
      .pop()
      ?.replace(/\.\w+$/, '') ?? '';
  return ME.test(last);
}

const USER_NAME = /^(username|user_?name|login|handle|acct|preferred_?username|name)$/i;
const EMAIL = /^(email|e_?mail|email_?address|emailAddress|mail)$/i;
const ADMIN = /^(is_?admin|isAdmin|admin|site_?admin|siteAdmin|is_?superuser|superuser|is_?staff|staff)$/i;
const TOKEN =
  /^(token|access_?token|accessToken|session_?token|sessionToken|jwt|id_?token|auth_?token|authToken|api_?key|apiKey)$/i;

export interface Who {
  readonly identity: StandInIdentity;
  /** A credential the mock accepts for it, for token members. */
  readonly credential: string | undefined;
}

/** `value` with the identity's name, address, admin flag and credential in the members that hold them. */
export function overlay(value: unknown, who: Who, depth = 0): unknown {
  if (!isRecord(value) || depth > 2) return value;
  const { identity } = who;
  const out: Json = { ...value };
  const hasUserName = Object.keys(out).some((k) => k !== 'name' && USER_NAME.test(k));
  for (const [k, v] of Object.entries(out)) {
    // A login that is an e-mail address (Box's `login`) gets the identity's address.
    if (USER_NAME.test(k) && typeof v === 'string' && (k !== 'name' || !hasUserName))
      out[k] = v.includes('@') ? `${identity.username}@example.com` : identity.username;
    else if (EMAIL.test(k) && typeof v === 'string') out[k] = `${identity.username}@example.com`;
    else if (ADMIN.test(k) && typeof v === 'boolean') out[k] = identity.roles.includes(ADMIN_ROLE);
    else if (TOKEN.test(k) && typeof v === 'string' && who.credential !== undefined) out[k] = who.credential;
    else if (isRecord(v)) out[k] = overlay(v, who, depth + 1);
  }
  return out;
}
