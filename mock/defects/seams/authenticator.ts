/**
 * The authenticator seam: the real Authenticator (mock/auth/authenticator.ts) wrapped with the `before`,
 * `rescue` and `after` steps of the defects on (mock/defects/define.ts), plus the lenient Bearer verifier
 * when a defect hooks the `jwt` seam. Nothing in mock/auth changes, and a mock whose defects hook neither seam
 * gets `real` itself back.
 */
import { readFile } from 'node:fs/promises';
import type { JSONWebKeySet } from 'jose';
import { parseAuthorization } from '../../auth/authorization-header.ts';
import { type IdentityStore, loadIdentityStore } from '../../auth/identity-store.ts';
import type { Authenticator, AuthSettings } from '../../auth/types.ts';
import type { Router } from '../../routing/router.ts';
import type {
  AuthenticatorContext,
  AuthenticatorHook,
  Defect,
  Grants,
  JwtHook,
  ParsedCredentials,
} from '../unit/define.ts';
import { createLenientVerifier } from './jwt-verifier.ts';

/** The wrapped authenticator, or `real` itself when no defect of `defects` hooks authentication. */
export async function defectiveAuthenticator(
  real: Authenticator,
  defects: readonly Defect[],
  context: { readonly settings: AuthSettings; readonly router: Router },
): Promise<Authenticator> {
  const { settings, router } = context;
  let store: IdentityStore | undefined;
  const hookContext: AuthenticatorContext = {
    settings,
    router,
    identities: async () => {
      store ??= await loadIdentityStore(settings.identitiesPath);
      return store;
    },
    grants: grantsOf(router),
  };
  const hooks: AuthenticatorHook[] = [];
  // The lenient Bearer verifier's rescue comes first: a defect's own rescue (e.g. failing open) sees only
  // the tokens that even the relaxed verifier refuses.
  const jwtHooks = defects.flatMap((d) => (d.hooks.jwt ? [d.hooks.jwt] : []));
  if (jwtHooks.length > 0) {
    const jwks = JSON.parse(await readFile(settings.jwksPath, 'utf8')) as JSONWebKeySet;
    const relaxations: JwtHook[] = [];
    for (const hook of jwtHooks) relaxations.push(await hook({ settings, jwks }));
    const lenient = await createLenientVerifier(settings, jwks, relaxations);
    hooks.push({
      rescue: (parsed, failure, now) =>
        failure.scheme === 'bearer' && failure.status === 401 && parsed?.credentials !== undefined
          ? lenient(parsed.credentials, now)
          : undefined,
    });
  }
  for (const defect of defects) {
    if (defect.hooks.authenticator !== undefined) hooks.push(await defect.hooks.authenticator(hookContext));
  }
  const before = hooks.flatMap((h) => (h.before ? [h.before] : []));
  const rescues = hooks.flatMap((h) => (h.rescue ? [h.rescue] : []));
  const afters = hooks.flatMap((h) => (h.after ? [h.after] : []));
  if (before.length === 0 && rescues.length === 0 && afters.length === 0) return real;
  return wrapped(real, { before, rescues, afters });
}

interface Steps {
  readonly before: readonly NonNullable<AuthenticatorHook['before']>[];
  readonly rescues: readonly NonNullable<AuthenticatorHook['rescue']>[];
  readonly afters: readonly NonNullable<AuthenticatorHook['after']>[];
}

/** `real` with the steps around it: before (may answer), real, rescues (first identity wins), afters. */
function wrapped(real: Authenticator, { before, rescues, afters }: Steps): Authenticator {
  return {
    async authenticate(headerValues, accepted, now) {
      const request = { values: headerValues, accepted };
      for (const step of before) {
        const answer = await step(request);
        if (answer !== undefined) return answer;
      }
      let result = await real.authenticate(request.values, request.accepted, now);
      const parsed: ParsedCredentials =
        request.values.length === 1 ? parseAuthorization(request.values[0] as string) : undefined;
      if (!result.ok) {
        const failure = result;
        for (const rescue of rescues) {
          const identity = await rescue(parsed, failure, now);
          if (identity !== undefined && request.accepted.includes(identity.scheme)) {
            result = { ok: true, identity };
            break;
          }
        }
      }
      for (const after of afters) {
        if (!result.ok) break;
        result = after(parsed, result.identity, now);
      }
      return result;
    },
  };
}

function grantsOf(router: Router): Grants {
  const roles = new Set<string>();
  const scopes = new Set<string>();
  for (const route of router.routes) {
    for (const rule of route.rules.values()) {
      for (const role of rule.roles) roles.add(role);
      for (const scope of rule.scopes) scopes.add(scope);
    }
  }
  return { roles: [...roles], scopes: [...scopes] };
}
