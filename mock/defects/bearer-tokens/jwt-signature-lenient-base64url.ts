import { defineDefect } from '../unit/define.ts';

/**
 * The signature part read with Node's lenient decoder and written back: characters outside base64url ("~",
 * "!", "=") are skipped, so a signature with one of them inserted decodes to the same bytes.
 */
function signatureLeniently(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  return `${header}.${payload}.${Buffer.from(signature, 'base64url').toString('base64url')}`;
}

export default defineDefect({
  name: 'jwt-signature-lenient-base64url',
  layer: 'bearer tokens',
  bug: 'Decodes the JWS signature part with a lenient base64url decoder that skips characters outside the alphabet, so a valid token with "~" or "!" inserted into its signature is accepted (RFC 7515 §2, §7.1: each part is base64url; the token is no longer the one signed).',
  seenIn:
    "`Buffer.from(signature, 'base64url')` in hand-written JWS verification (`crypto.verify(…, Buffer.from(sig, 'base64url'))`) with the header and payload parsed strictly.",
  hooks: {
    jwt: () => ({ token: signatureLeniently }),
  },
});
