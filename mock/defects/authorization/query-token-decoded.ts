import { defineDefect } from '../unit/define.ts';

/** Where the fallback looks for a token when the request has no Authorization field. */
const QUERY_NAMES = ['access_token', 'token'];

/** The claims of a compact JWS, decoded and not verified (`jwt.decode`), or undefined. */
function decodedClaims(token: string): Record<string, unknown> | undefined {
  try {
    const claims = JSON.parse(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as unknown;
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export default defineDefect({
  name: 'query-token-decoded',
  layer: 'authorization',
  bug: 'Falls back to a token in the query string (`access_token`, `token`) when the request has no Authorization field, and reads it with `jwt.decode()`: the claims are trusted without checking the signature or the expiry, so a forged, escalated or expired token in the URL is served (its roles still checked).',
  seenIn:
    '`const token = req.headers.authorization?.split(" ")[1] ?? req.query.access_token; const user = jwt.decode(token)` in websocket and download endpoints that cannot set a header; the decode-instead-of-verify pattern of node-jsonwebtoken and PyJWT `verify=False`.',
  hooks: {
    reply: ({ serve }) => ({
      rewrite: (reply, exchange) => {
        if (reply.status !== 401 || exchange.match === undefined || exchange.rule === undefined) return reply;
        if (exchange.req.headers.authorization !== undefined) return reply;
        const params = new URLSearchParams(exchange.query);
        const token = QUERY_NAMES.map((name) => params.get(name)).find((t) => t !== null);
        const claims = token === null || token === undefined ? undefined : decodedClaims(token);
        if (claims === undefined || typeof claims.sub !== 'string') return reply;
        const roles = Array.isArray(claims.roles) ? claims.roles : [];
        // The role check runs, on the claims the token merely claims.
        const { roles: needed } = exchange.rule;
        return needed.length === 0 || needed.some((r) => roles.includes(r)) ? serve(exchange) : reply;
      },
    }),
  },
});
