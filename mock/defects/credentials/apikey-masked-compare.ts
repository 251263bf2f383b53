import { looseApikeyRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

/** What a key listing shows of a key: its first 8 and last 4 characters. */
const SHOWN_HEAD = 8;
const SHOWN_TAIL = 4;

export default defineDefect({
  name: 'apikey-masked-compare',
  layer: 'credentials',
  bug: 'Matches an API key by its length, first 8 and last 4 characters only, so a key with a character changed in its middle is accepted.',
  seenIn:
    'Keys looked up by the masked form a dashboard shows (`gck_uJOd…5ml`), the hidden middle never compared.',
  hooks: {
    authenticator: looseApikeyRescue(
      (stored, given) =>
        stored.length === given.length &&
        stored.slice(0, SHOWN_HEAD) === given.slice(0, SHOWN_HEAD) &&
        stored.slice(-SHOWN_TAIL) === given.slice(-SHOWN_TAIL),
    ),
  },
});
