import { defineDefect } from '../unit/define.ts';

/** The scheme words the defective server looks for, lower-cased (it compares case-insensitively). */
const WORDS = ['bearer', 'basic', 'apikey'];

export default defineDefect({
  name: 'scheme-prefix-slice',
  layer: 'header parsing',
  bug: 'Finds the scheme with `value.toLowerCase().startsWith("bearer")` and takes the credentials as `value.slice("Bearer ".length)`, so a longer word ("Bearerx <token>", "Bearerr <token>") or a tab instead of the space still carries a valid credential in (RFC 9110 §11.1, §11.4: the scheme is a token compared whole, followed by 1*SP).',
  seenIn:
    "`if (auth.toLowerCase().startsWith('bearer')) token = auth.substring(7)` in hand-written middleware.",
  hooks: {
    authenticator: () => ({
      before: (request) => {
        const value = request.values.length === 1 ? (request.values[0] as string) : undefined;
        const word = WORDS.find((w) => value?.toLowerCase().startsWith(w));
        if (value === undefined || word === undefined || value.charAt(word.length) === ' ') return undefined;
        // `slice(word.length + 1)`: whatever stands right after the word is dropped as "the space".
        const credentials = value.slice(word.length + 1).replace(/^ +/, '');
        if (credentials.length > 0) request.values = [`${word} ${credentials}`];
        return undefined;
      },
    }),
  },
});
