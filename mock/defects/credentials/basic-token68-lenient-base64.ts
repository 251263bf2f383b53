import { parseAuthorization } from '../../auth/authorization-header.ts';
import { defineDefect } from '../unit/define.ts';

/** RFC 9110 §11.2 token68: what the defective server checks before it decodes. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

export default defineDefect({
  name: 'basic-token68-lenient-base64',
  layer: 'credentials',
  bug: 'Checks that Basic credentials have the token68 shape, then decodes them with a lenient base64 decoder: "-", ".", "_" and "~" pass the shape check, and the decoder skips "." and "~" and reads "-" and "_" as "+" and "/", so a valid credential with them mixed in is let in (RFC 4648 §3.3 via RFC 7617 §2: MUST reject). "!" and "*" are refused by the shape check.',
  seenIn:
    "A token68 regular expression in front of `Buffer.from(credentials, 'base64')` (Node), or of Python's `base64.b64decode(s)` without `validate=True`.",
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const parsed =
          request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
        if (parsed?.scheme !== 'basic' || parsed.credentials === undefined) return undefined;
        // The shape check: only token68 reaches the decoder; the strict decoder refuses the rest as before.
        if (!TOKEN68.test(parsed.credentials)) return undefined;
        const canonical = Buffer.from(parsed.credentials, 'base64').toString('base64');
        if (canonical.length > 0) request.values = [`Basic ${canonical}`];
        return undefined;
      },
    }),
  },
});
