import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-ignore-nbf',
  layer: 'bearer tokens',
  bug: 'Accepts tokens before their `nbf` (not before) time.',
  seenIn: 'Verifiers that check `exp` by hand and forget `nbf`.',
  hooks: {
    // RFC 7519 §4.1.5 not applied: nbf may be any number.
    jwt: () => ({ claims: { nbf: ({ nbf }) => nbf === undefined || typeof nbf === 'number' } }),
  },
});
