import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'jwt-skip-signature',
  layer: 'bearer tokens',
  bug: 'Decodes Bearer JWTs without verifying their signature (claims are still checked), so any token with the right claims is accepted.',
  seenIn:
    'Application code calling `jwt.decode()` where `jwt.verify()` was meant; gateways "trusting" tokens verified upstream.',
  hooks: {
    // `jwt.decode()` where `jwt.verify()` was meant: RFC 7515 §5.2 validation never happens.
    jwt: () => ({ signature: () => true }),
  },
});
