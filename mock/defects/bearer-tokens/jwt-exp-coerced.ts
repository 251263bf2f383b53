import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-exp-coerced',
  layer: 'bearer tokens',
  bug: 'Checks `exp` by hand with `payload.exp < now`: JavaScript coerces a string ("1764000000"), a one-element array or an object (NaN) in the comparison, so a signed token whose `exp` is no NumericDate is accepted (RFC 7519 §2, §4.1.4: its value MUST be a number).',
  seenIn:
    '`if (payload.exp < Date.now() / 1000) throw new Error("expired")` after a signature check, with no type check of the claim.',
  hooks: {
    jwt: () => ({
      claims: {
        // `exp < now` is false for a future time in any spelling JavaScript coerces, and for NaN.
        exp: ({ exp }, now) =>
          exp !== undefined && exp !== null && !((exp as unknown as number) < Math.floor(now / 1000)),
      },
    }),
  },
});
