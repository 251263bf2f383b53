import { parseAuthorization } from '../../auth/authorization-header.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'basic-bad-base64-500',
  layer: 'credentials',
  bug: 'Decodes Basic credentials with `atob()` without catching its exception, so characters outside base64 crash the request (500) instead of a 400 or 401.',
  seenIn: '`atob()` / strict base64 decoders called outside a try block in Basic-auth middleware.',
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const parsed =
          request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
        // atob() throws a DOMException on characters outside base64; nothing catches it, so the request dies (500).
        if (parsed?.scheme === 'basic' && parsed.credentials !== undefined) atob(parsed.credentials);
        return undefined;
      },
    }),
  },
});
