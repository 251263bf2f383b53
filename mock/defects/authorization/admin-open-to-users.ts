import { accepted, union } from '../edits/credentials.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'admin-open-to-users',
  layer: 'authorization',
  bug: 'Lets any identity that holds some role into a path that requires a particular one: an ordinary user reaches the admin path.',
  seenIn: '`if (user.roles)` / `roles.length > 0` written where `roles.includes("admin")` was meant.',
  hooks: {
    authenticator: ({ grants }) => ({
      // `if (user.roles.length > 0)` where `user.roles.includes(required)` was meant: any role is every role.
      after: (_parsed, identity) =>
        accepted(
          identity.roles.length === 0
            ? identity
            : Object.freeze({ ...identity, roles: union(identity.roles, grants.roles) }),
        ),
    }),
  },
});
