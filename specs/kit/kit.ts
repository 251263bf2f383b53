/**
 * What a conformance check works with: the profile, the target client and the token mint, plus the
 * questions every check asks of them — "valid credentials of identity X in scheme Y", "a request that
 * identity X may make in scheme Y". A check that needs something the profile lacks is skipped with
 * `profile lacks <field>: <why>`, never silently passed (docs/design.md "The target profile").
 */
import { test } from '@playwright/test';
import { tokenFor } from '../credentials/client.ts';
import { rememberSecrets } from '../lib/secrets.ts';
import type { TokenMint } from '../lib/tokens.ts';
import type { ApikeyForm } from '../profile/apikey-scheme.ts';
import { CredentialMaker, SCHEMES } from '../profile/credential-maker.ts';
import type { Endpoint, IdentityCredentials, Profile, Scheme } from '../profile/types.ts';
import { ANNOTATION } from '../rules/types.ts';
import type { SendOptions } from '../run/scheduler.ts';
import type { Exchange, Request, Target } from '../wire/http.ts';

export type IdentityName = 'admin' | 'user' | 'ratelimit';
export { SCHEMES };

/** Skips the running test: the profile does not give what the check needs. */
export function lacks(field: string, why: string): never {
  test.skip(true, `profile lacks ${field}: ${why}`);
  throw new Error('unreachable: test.skip throws');
}

/**
 * Skips the running test because something the check builds on did not hold (named in `reason`). `causes`
 * names the rules (ids or id patterns, `auth.401.*`) whose behaviour broke the precondition: when one of them
 * fails, the report files this rule under its finding (specs/rules/types.ts ANNOTATION.cause, issue #67).
 */
export function unmet(reason: string, causes: readonly string[] = []): never {
  for (const cause of causes) test.info().annotations.push({ type: ANNOTATION.cause, description: cause });
  test.skip(true, `precondition not met: ${reason}`);
  throw new Error('unreachable: test.skip throws');
}

/** Returns `value`, or skips with `profile lacks <field>: <why>` when it is absent. */
export function need<T>(value: T | undefined | null, field: string, why: string): T {
  if (value === undefined || value === null) lacks(field, why);
  return value;
}

/** A request that a named identity may make successfully, in any of `schemes`. */
export interface Probe {
  /** Which profile entry it comes from, for messages: `endpoints.protected`. */
  readonly field: string;
  readonly method: string;
  readonly path: string;
  readonly json?: unknown;
  readonly schemes: readonly Scheme[];
  /** Identities the profile says may make it. */
  readonly identities: readonly IdentityName[];
}

export class Kit {
  /** Builds every Authorization value the checks send, in the target's scheme words and key form. */
  readonly credentials: CredentialMaker;

  constructor(
    readonly profile: Profile,
    readonly target: Target,
    readonly mint: TokenMint | undefined,
  ) {
    this.credentials = CredentialMaker.for(profile);
  }

  /** How the target takes a key in Authorization (profile `apikeyScheme`, resolved once by the maker). */
  get apikey(): ApikeyForm {
    return this.credentials.apikeyForm;
  }

  /** The auth-scheme word a credential of `scheme` is sent with; undefined for a key sent alone. */
  schemeWord(scheme: Scheme): string | undefined {
    return this.credentials.word(scheme);
  }

  identity(name: IdentityName): IdentityCredentials | undefined {
    return this.profile.identities[name];
  }

  /**
   * `Authorization` value carrying valid credentials of `identity` in `scheme`, or undefined when the
   * profile gives none. Bearer prefers the token obtained at run time (identities.X.token), then a freshly
   * minted one (never expired), then the profile's static token.
   */
  async authorization(identity: IdentityName, scheme: Scheme): Promise<string | undefined> {
    const creds = this.identity(identity);
    if (!creds) return undefined;
    switch (scheme) {
      case 'bearer': {
        const token = await this.bearerToken(identity);
        return token === undefined ? undefined : this.credentials.bearer(token);
      }
      case 'basic':
        return creds.basic ? this.credentials.basic(creds.basic.username, creds.basic.password) : undefined;
      case 'apikey':
        return creds.apikey ? this.credentials.apikey(creds.apikey) : undefined;
    }
  }

  /** The identity's Bearer token: obtained at run time, else freshly minted, else the profile's static one. */
  async bearerToken(identity: IdentityName): Promise<string | undefined> {
    const creds = this.identity(identity);
    // A token obtained at run time is what the target's own clients send: it comes first.
    if (creds?.token) return tokenFor(identity);
    if (this.mint && creds?.jwtClaims) return this.minted(creds.jwtClaims);
    return creds?.bearer;
  }

  /** Like `authorization`, but skips the test when the profile has no such credential. */
  async auth(identity: IdentityName, scheme: Scheme): Promise<string> {
    return need(
      await this.authorization(identity, scheme),
      `identities.${identity}.${scheme === 'bearer' ? 'bearer (or jwt + jwtClaims)' : scheme}`,
      `no ${this.credentials.name(scheme)} credential for the ${identity} identity`,
    );
  }

  /** A token minted for the identity and registered for redaction. */
  async minted(claims: Readonly<Record<string, unknown>>): Promise<string> {
    const token = await need(this.mint, 'jwt', 'no signing material to mint tokens').fresh(claims);
    rememberSecrets([token]);
    return token;
  }

  /** The identity's jwtClaims plus signing material, or a skip naming what is missing. */
  jwtClaims(identity: IdentityName): { mint: TokenMint; claims: Readonly<Record<string, unknown>> } {
    const mint = need(this.mint, 'jwt', 'no signing material, so the suite cannot mint tokens');
    const claims = need(
      this.identity(identity)?.jwtClaims,
      `identities.${identity}.jwtClaims`,
      'no claims to put in tokens minted for this identity',
    );
    return { mint, claims };
  }

  endpoint(role: 'public' | 'protected' | 'admin' | 'missing' | 'methodNotAllowed'): Endpoint | undefined {
    return this.profile.endpoints[role];
  }

  /** A credentialed endpoint with at least one accepted scheme; skips the test when the profile has none. */
  guarded(role: 'protected' | 'admin'): Endpoint & { readonly schemes: readonly Scheme[] } {
    const endpoint = need(this.endpoint(role), `endpoints.${role}`, `no ${role} path`);
    const schemes = need(
      endpoint.schemes?.length ? endpoint.schemes : undefined,
      `endpoints.${role}.schemes`,
      'no accepted scheme',
    );
    return { ...endpoint, schemes };
  }

  /**
   * Identities that may write to the collection (docs/profile.md `writer`): the named one (default admin), or
   * both admin and user when the profile says `any`.
   */
  writers(): IdentityName[] {
    const writer = this.profile.endpoints.collection?.writer ?? 'admin';
    return writer === 'any' ? ['admin', 'user'] : [writer];
  }

  /** Every request the profile declares as succeeding for some identity, with the schemes it accepts. */
  probes(): Probe[] {
    const { protected: prot, admin, collection } = this.profile.endpoints;
    const out: Probe[] = [];
    if (prot?.schemes?.length) {
      out.push({
        field: 'endpoints.protected',
        method: prot.method ?? 'GET',
        path: prot.path,
        schemes: prot.schemes,
        identities: ['admin', 'user'],
      });
    }
    if (admin?.schemes?.length) {
      out.push({
        field: 'endpoints.admin',
        method: admin.method ?? 'GET',
        path: admin.path,
        schemes: admin.schemes,
        identities: ['admin'],
      });
    }
    if (collection?.writeSchemes?.length && collection.sampleItem) {
      out.push({
        field: 'endpoints.collection',
        method: 'POST',
        path: collection.path,
        json: collection.sampleItem,
        schemes: collection.writeSchemes,
        identities: this.writers(),
      });
    }
    return out;
  }

  /** A request `identity` may make in `scheme`, preferring reads; skips when the profile has none. */
  probeFor(scheme: Scheme, identity?: IdentityName): Probe {
    const probe = this.probes().find(
      (p) => p.schemes.includes(scheme) && (identity === undefined || p.identities.includes(identity)),
    );
    return need(
      probe,
      'endpoints.*.schemes',
      `no endpoint accepting ${this.credentials.name(scheme)}${identity ? ` for the ${identity} identity` : ''}`,
    );
  }

  /** The probe the identity may make with the first scheme it has credentials for. */
  async anyValid(identity: IdentityName = 'admin'): Promise<{ probe: Probe; authorization: string }> {
    for (const probe of this.probes()) {
      if (!probe.identities.includes(identity)) continue;
      for (const scheme of probe.schemes) {
        const authorization = await this.authorization(identity, scheme);
        if (authorization) return { probe, authorization };
      }
    }
    return lacks(
      `identities.${identity}`,
      `no credential of the ${identity} identity for any declared endpoint`,
    );
  }

  /** Valid credentials of the admin identity in a scheme `endpoint` accepts (or any scheme it has). */
  async adminAuthorizationFor(endpoint?: Endpoint): Promise<string> {
    const order = [...(endpoint?.schemes ?? []), ...SCHEMES];
    for (const scheme of order) {
      const value = await this.authorization('admin', scheme);
      if (value) return value;
    }
    return lacks('identities.admin', 'no credential of the admin identity');
  }

  /** Sends `probe` with the given Authorization value (none when undefined). */
  send(
    probe: Pick<Probe, 'method' | 'path' | 'json'>,
    authorization?: string,
    extra?: Request['headers'],
    options?: SendOptions,
  ): Promise<Exchange> {
    const inputs = this.inputsOf(probe.method, probe.path);
    return this.target.send(
      {
        method: probe.method,
        path: inputs.path,
        headers: {
          ...inputs.headers,
          ...(authorization === undefined ? {} : { Authorization: authorization }),
          ...extra,
        },
        ...(probe.json === undefined ? {} : { json: probe.json }),
      },
      options,
    );
  }

  /**
   * The required inputs the profile gives for the endpoint `method path` is (its `query` and `headers`): a
   * request to it carries them, as the operation requires, so that a check meets the answer it tests and not a
   * 400 for a missing parameter. A path the request already gives a query keeps it and gains the rest.
   */
  private inputsOf(method: string, path: string): { path: string; headers: Record<string, string> } {
    const endpoints = Object.entries(this.profile.endpoints) as [string, Endpoint | undefined][];
    const bare = path.split('?')[0];
    const e = endpoints.find(
      ([name, x]) =>
        x !== undefined &&
        x.path === bare &&
        (x.query !== undefined || x.headers !== undefined) &&
        (x.method ?? (name === 'collection' ? 'POST' : 'GET')).toUpperCase() === method.toUpperCase(),
    )?.[1];
    if (e === undefined) return { path, headers: {} };
    const given = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
    const query = new URLSearchParams(given);
    for (const [k, v] of Object.entries(e.query ?? {})) if (!given.has(k)) query.set(k, v);
    const text = query.toString();
    return { path: text ? `${bare}?${text}` : path, headers: { ...e.headers } };
  }

  /** Removes an item a successful POST probe created (best effort; a conformance check must leave no litter). */
  async cleanup(probe: Probe, ex: Exchange, authorization: string): Promise<void> {
    if (probe.method !== 'POST' || ex.status < 200 || ex.status > 299) return;
    const id = itemId(ex, this.profile.endpoints.collection?.idField);
    if (id === undefined) return;
    try {
      await this.target.send({
        method: 'DELETE',
        path: itemPathFor(
          probe.path === this.profile.endpoints.collection?.path
            ? this.profile.endpoints.collection
            : { path: probe.path },
          id,
        ),
        headers: { Authorization: authorization },
      });
    } catch {
      // Litter is not a verdict; the run goes on.
    }
  }

  /** Records what an INFO check saw (specs/rules/types.ts: annotation `observation`). */
  observe(description: string): void {
    test.info().annotations.push({ type: ANNOTATION.observation, description });
  }
}

/** The path of the item `id` of the collection: its `itemPath` with the id in place of `{id}`. */
export function itemPathFor(
  c: { readonly path: string; readonly itemPath?: string | undefined },
  id: string,
): string {
  return (c.itemPath ?? `${c.path.replace(/\/+$/, '')}/{id}`).replace('{id}', encodeURIComponent(id));
}

/** The id of the item in a JSON response body (its `field`, default `id`; profile `collection.idField`), if any. */
export function itemId(ex: Exchange, field = 'id'): string | undefined {
  try {
    // A dotted field (`data.id`) reads through the answer's wrapper.
    let value = JSON.parse(ex.body) as unknown;
    for (const key of field.split('.'))
      value =
        value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  } catch {
    // not JSON: no id
  }
  return undefined;
}
