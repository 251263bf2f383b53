/**
 * Why a token could not be obtained, in one line that names the profile field and, for an OAuth refusal, the
 * endpoint's error code (RFC 6749 §5.2) — never a secret. `refused`: the endpoint answered and said no (the
 * profile is wrong: exit 2); `unreachable`: no usable answer (exit 3).
 */
export class TokenError extends Error {
  readonly code = 'ERR_GATECHECK_TOKEN';
  constructor(
    readonly kind: 'refused' | 'unreachable',
    readonly field: string,
    readonly reason: string,
  ) {
    super(`profile: ${field}: ${reason}`);
    this.name = 'TokenError';
    // One line, not a stack: Playwright prints `stack` for a global setup error.
    this.stack = `${this.name}: ${this.message}`;
  }
}
