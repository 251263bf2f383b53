/** The one error a profile can cause: one line naming the field (a JSON Pointer) and what is expected. */

/** A profile that cannot be used. `message` is the one line shown to the user; `field` is a JSON pointer. */
export class ProfileError extends Error {
  readonly code = 'ERR_GATECHECK_PROFILE';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`profile: ${field} ${reason}`);
    this.name = 'ProfileError';
    // One line, not a stack: this is the user's mistake, not ours (Playwright prints `stack` for global setup errors).
    this.stack = `${this.name}: ${this.message}`;
  }
}
