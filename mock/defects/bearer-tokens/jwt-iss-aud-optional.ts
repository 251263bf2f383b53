import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-iss-aud-optional',
  layer: 'bearer tokens',
  bug: 'Checks `iss` and `aud` only when the token carries them: a validly signed token without either is accepted.',
  seenIn: '`if (payload.aud && payload.aud !== expected) reject()` — the check written as optional.',
  hooks: {
    // RFC 8725 §3.8–3.9 checks applied only to claims that are present.
    jwt: () => ({ claims: { iss: ({ iss }) => iss === undefined, aud: ({ aud }) => aud === undefined } }),
  },
});
