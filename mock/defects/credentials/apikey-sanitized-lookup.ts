import { looseApikeyRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

/** What the defective server keeps of a key before looking it up: letters, digits and "_". */
const sanitized = (key: string): string => key.replace(/[^A-Za-z0-9_]/g, '');

export default defineDefect({
  name: 'apikey-sanitized-lookup',
  layer: 'credentials',
  bug: 'Strips every character but letters, digits and "_" from a presented API key before looking it up, so a valid key with "~", "." or "!" inserted anywhere is accepted as the key (the key is compared whole: seed §5).',
  seenIn:
    'Input "sanitising" in front of a key lookup (`key.replace(/[^\\w]/g, "")`, `preg_replace(\'/[^a-zA-Z0-9_]/\', \'\', $key)`) meant to keep the query safe.',
  hooks: {
    authenticator: looseApikeyRescue((stored, given) => given !== stored && sanitized(given) === stored),
  },
});
