import { looseApikeyRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-off-by-one',
  layer: 'credentials',
  bug: 'Compares API keys of equal length over all but their last character, so a valid key with its last character changed is accepted.',
  seenIn: 'Hand-written constant-time comparisons looping `for (i = 0; i < len - 1; i++)`.',
  hooks: {
    authenticator: looseApikeyRescue(
      (stored, given) => stored.length === given.length && stored.slice(0, -1) === given.slice(0, -1),
    ),
  },
});
