import { looseApikeyRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-accepts-prefix',
  layer: 'credentials',
  bug: 'Accepts any non-empty prefix of a valid API key: the comparison runs over the length of the key given.',
  seenIn:
    '`strncmp(given, stored, strlen(given))`; `stored.startsWith(given)`; a loop over the shorter of two buffers.',
  hooks: {
    authenticator: looseApikeyRescue((stored, given) => stored.startsWith(given)),
  },
});
