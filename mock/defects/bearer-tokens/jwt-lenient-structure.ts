import { defineDefect } from '../unit/define.ts';

const NOT_BASE64URL = /[^A-Za-z0-9_-]/g;

/** `const [h, p, s] = token.split('.')` and a decoder that skips what is not base64url, then re-encoded. */
function leniently(token: string): string | undefined {
  const [h, p, s] = token.split('.');
  if (h === undefined || p === undefined || s === undefined) return undefined;
  const canonical = (segment: string): string =>
    Buffer.from(segment.replace(NOT_BASE64URL, ''), 'base64url').toString('base64url');
  return `${canonical(h)}.${canonical(p)}.${s}`;
}

export default defineDefect({
  name: 'jwt-lenient-structure',
  layer: 'bearer tokens',
  bug: 'Parses tokens leniently: keeps the first three dot-separated segments and decodes base64url skipping characters outside the alphabet, so tokens with extra segments or stray characters are accepted.',
  seenIn: "`const [h, p, s] = token.split('.')` with Node's lenient `Buffer.from(x, 'base64url')`.",
  hooks: {
    // RFC 7515 §7.1: exactly three base64url segments; this parser keeps the first three and skips stray characters.
    jwt: () => ({ token: leniently }),
  },
});
