/**
 * Builds the failure branch of AuthResult. docs/design.md "Status choices": malformed credentials → 400
 * (`invalid_request`); every other failure → 401.
 */
import type { AuthFailureCode, AuthResult, Scheme } from './types.ts';

export type AuthFailure = Extract<AuthResult, { readonly ok: false }>;

/** `reason` is shown to the client (problem+json `detail`): never put the credential or any part of it in. */
export function authFailure(code: AuthFailureCode, reason: string, scheme?: Scheme): AuthFailure {
  const status = code === 'malformed' ? 400 : 401;
  return Object.freeze(
    scheme === undefined ? { ok: false, status, code, reason } : { ok: false, status, code, reason, scheme },
  );
}
