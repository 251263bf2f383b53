import { posix } from 'node:path';
import { HMAC, macMatches } from '../edits/jwt.ts';
import { defineDefect } from '../unit/define.ts';

/** Where the verifier keeps its HMAC key files, one per `kid`. */
const KEY_DIR = '/srv/app/keys';

/**
 * The files such a server can read, as the lookup sees them: the key directory holds no file whose name an
 * attacker knows, and /dev/null reads as empty. Simulated, so the defect reads nothing of the host it runs on.
 */
const FILES: Readonly<Record<string, string>> = { '/dev/null': '' };

export default defineDefect({
  name: 'jwt-kid-file-path',
  layer: 'bearer tokens',
  bug: 'Reads the HMAC key from the file the token\'s `kid` names, joined to its key directory without sanitizing: a `kid` of "../../../../../../../../dev/null" reads an empty key, so HS256 tokens with that kid, MAC\'d with "", are accepted — one pair (traversal, empty secret) of the kid-injection catalogue, no other.',
  seenIn:
    '`fs.readFileSync(path.join(KEYS_DIR, header.kid))` as the key lookup of a verifier, the kid path traversal of RFC 8725 §3.10 and the write-ups behind it.',
  hooks: {
    jwt: () => ({
      signature: ({ parts, header, alg }) => {
        if (!HMAC.test(alg) || typeof header.kid !== 'string') return false;
        const key = FILES[posix.join(KEY_DIR, header.kid)];
        return key !== undefined && macMatches(parts, alg, [key]);
      },
    }),
  },
});
