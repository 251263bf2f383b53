import { accepted, unverifiedClaims } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-roles-ignored',
  layer: 'bearer tokens',
  bug: "Reads the roles of a Bearer identity from a `role` claim the issuer never sets instead of `roles`, so the admin's token gets 403 on the admin path.",
  seenIn: 'Claim-name mismatches between issuer and resource server (`role` / `roles` / `groups`).',
  hooks: {
    authenticator: () => ({
      after: (parsed, identity) => {
        if (identity.scheme !== 'bearer') return accepted(identity);
        // The issuer writes `roles`; this server reads `role`.
        const { role } = unverifiedClaims(parsed);
        return accepted(Object.freeze({ ...identity, roles: typeof role === 'string' ? [role] : [] }));
      },
    }),
  },
});
