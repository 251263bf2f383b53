import { parseAuthorization } from '../../auth/authorization-header.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-lenient-base64',
  layer: 'credentials',
  bug: 'Decodes Basic credentials with a lenient base64 decoder that skips characters outside the alphabet and takes the URL-safe alphabet, so a mangled credential is let in (RFC 4648 §3.3 via RFC 7617 §2: MUST reject). It also ignores excess padding, which §3.3 allows.',
  seenIn:
    "`Buffer.from(credentials, 'base64')` in Node, Python's `base64.b64decode(s)` without `validate=True`.",
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const parsed =
          request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
        if (parsed?.scheme !== 'basic' || parsed.credentials === undefined) return undefined;
        // Node's decoder drops what it does not know and reads "-" and "_" as "+" and "/".
        const canonical = Buffer.from(parsed.credentials, 'base64').toString('base64');
        if (canonical.length > 0) request.values = [`Basic ${canonical}`];
        return undefined;
      },
    }),
  },
});
