/**
 * Decodes the Basic scheme's user-pass into user-id and password (RFC 7617 §2), after base64.ts has undone
 * the base64. Each step returns undefined for bad input, so basic.ts can say which rule was broken without
 * quoting the credential.
 */
export interface BasicCredentials {
  readonly userId: string;
  readonly password: string;
}

// RFC 7617 §2.1 charset="UTF-8"; `fatal` turns an invalid sequence into an error instead of U+FFFD.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/*
 * RFC 5234 Appendix B.1:  CTL = %x00-1F / %x7F
 * RFC 7617 §2: "The user-id and password MUST NOT contain any control characters".
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this RegExp's job.
const CTL = /[\x00-\x1f\x7f]/;

/** True when `text` holds a CTL. */
export function containsControlCharacter(text: string): boolean {
  return CTL.test(text);
}

/** The charset layer: UTF-8 only; invalid byte sequences are refused rather than replaced. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/*
 * RFC 7617 §2:
 *   user-pass = user-id ":" password
 *   user-id   = *<TEXT excluding ":">
 *   password  = *TEXT
 * Split at the first colon: the user-id cannot hold one, so every later colon belongs to the password.
 */
export function splitUserPass(userPass: string): BasicCredentials | undefined {
  const colon = userPass.indexOf(':');
  if (colon === -1) return undefined;
  return { userId: userPass.slice(0, colon), password: userPass.slice(colon + 1) };
}

/** True when the user-id or the password holds a control character (RFC 7617 §2). */
export function hasControlCharacter(credentials: BasicCredentials): boolean {
  return containsControlCharacter(credentials.userId) || containsControlCharacter(credentials.password);
}
