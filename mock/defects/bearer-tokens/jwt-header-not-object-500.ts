import { parseAuthorization } from '../../auth/authorization-header.ts';
import { defineDefect } from '../unit/define.ts';

/** The JOSE header of a compact token as JSON, or undefined when it is not JSON (that case is caught). */
function headerJson(token: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) };
  } catch {
    return undefined;
  }
}

/** The hand check: `in` throws "Cannot use 'in' operator" on a primitive or null. */
function declaresAlg(header: unknown): boolean {
  return 'alg' in (header as object);
}

export default defineDefect({
  name: 'jwt-header-not-object-500',
  layer: 'bearer tokens',
  bug: 'Checks the JOSE header by hand with `"alg" in header` after a guarded `JSON.parse`: the `in` operator throws a TypeError on a header that is JSON but no object (`"JWT"`, `1`, `true`, `null`), and nothing catches it, so the request dies with 500 instead of a 401 (RFC 7515 §5.2 step 3: the header MUST be a JSON object).',
  seenIn:
    'Hand-rolled token pre-checks in API middleware (`if (!("alg" in header)) return unauthorized()`) that trust `JSON.parse` to return an object.',
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const parsed =
          request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
        if (parsed?.scheme !== 'bearer' || parsed.credentials === undefined) return undefined;
        const header = headerJson(parsed.credentials);
        // Nothing catches what the check throws (500); a header it passes goes on to the real verifier.
        if (header !== undefined) declaresAlg(header.value);
        return undefined;
      },
    }),
  },
});
