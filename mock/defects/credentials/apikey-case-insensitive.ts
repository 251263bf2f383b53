import { looseApikeyRescue } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'apikey-case-insensitive',
  layer: 'credentials',
  bug: 'Compares API keys without regard to letter case, so a valid key with its case changed is accepted.',
  seenIn:
    'Keys kept in a case-insensitive column (MySQL `utf8mb4_general_ci`) and found with `WHERE api_key = ?`; `a.toLowerCase() === b.toLowerCase()`.',
  hooks: {
    authenticator: looseApikeyRescue((stored, given) => stored.toLowerCase() === given.toLowerCase()),
  },
});
