/**
 * One predicate says what in a profile is a credential (shared/secrets.ts), and the report's scrubber, the
 * statement's redaction and the suite's own redaction all read it. This test walks the profile's JSON schema
 * (fixtures/schemas/profile.schema.json) and finds every field that takes a credential:
 *   - a field typed `secret` or `envRef` (the schema lets a credential, and only a credential, come from
 *     the environment: docs/profile.md "Secrets from the environment"),
 *   - a string field whose description says it holds a password, a secret, a token or a private key,
 *   - the private members of every JWK the schema admits (RFC 7518 §6.2.2, §6.3.2, §6.4.1; RFC 8037 §2);
 * and fails on any the predicate does not cover, then puts a marker at each one and checks that neither the
 * statement's profile nor (for a secret) the report's list of secrets lets it through.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { REDACTED, redactProfile } from '../../cli/attest/redact-profile.ts';
import { credentialKind, profileSecrets } from '../../shared/secrets.ts';
import { fixture } from '../mock/mock-support.ts';

type Schema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
};

/** RFC 7518 §6.2.2, §6.3.2, §6.4.1 and RFC 8037 §2, written out here rather than read from the predicate. */
const RFC_JWK_PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** A key the schema leaves free (`additionalProperties`), in a path. */
const ANY = '*';

const SAYS_CREDENTIAL = /\b(passwords?|secrets?|private key|credentials?|(bearer|access) tokens?)\b/i;

/** One step from the profile's root: the key, and whether the value there is an array of what follows. */
interface Step {
  readonly key: string;
  readonly array: boolean;
}

interface Place {
  readonly steps: readonly Step[];
  /** Why the schema says it holds a credential. */
  readonly why: string;
  /** The object the field sits in is a JWK. */
  readonly inJwk: boolean;
}

const schema = JSON.parse(readFileSync(fixture('schemas/profile.schema.json'), 'utf8')) as Schema & {
  definitions: Record<string, Schema>;
};

function deref(node: Schema): Schema {
  const name = node.$ref?.replace('#/definitions/', '');
  return name === undefined ? node : (schema.definitions[name] ?? node);
}

function refsOf(node: Schema): string[] {
  return [node.$ref, ...(node.anyOf ?? []).map((branch) => branch.$ref)].filter(
    (ref): ref is string => ref !== undefined,
  );
}

/** Every place in the schema that takes a credential. */
function credentialPlaces(): Place[] {
  const out: Place[] = [];
  const visit = (node: Schema, steps: readonly Step[], seen: ReadonlySet<Schema>): void => {
    if (seen.has(node)) return;
    const here = new Set(seen).add(node);
    const refs = refsOf(node);
    const leaf = steps.at(-1);
    if (leaf && refs.some((ref) => ref === '#/definitions/secret' || ref === '#/definitions/envRef')) {
      out.push({ steps, why: `typed ${refs.join(' | ')}`, inJwk: false });
    } else if (leaf && deref(node).type === 'string' && SAYS_CREDENTIAL.test(deref(node).description ?? '')) {
      out.push({ steps, why: `described as "${deref(node).description}"`, inJwk: false });
    }
    if (refs.includes('#/definitions/jwk')) {
      for (const member of RFC_JWK_PRIVATE_MEMBERS)
        out.push({
          steps: [...steps, { key: member, array: member === 'oth' }],
          why: 'a JWK private member',
          inJwk: true,
        });
    }
    for (const branch of [node, ...(node.anyOf ?? [])]) {
      const resolved = deref(branch);
      if (resolved !== branch) visit(resolved, steps, here);
      for (const [key, child] of Object.entries(resolved.properties ?? {}))
        visit(child, [...steps, { key, array: false }], here);
      if (typeof resolved.additionalProperties === 'object')
        visit(resolved.additionalProperties, [...steps, { key: ANY, array: false }], here);
      if (resolved.items && leaf)
        visit(resolved.items, [...steps.slice(0, -1), { ...leaf, array: true }], here);
    }
  };
  visit(schema, [], new Set());
  // A place reached along two branches (a definition and its anyOf) once.
  return [...new Map(out.map((place) => [nameOf(place), place])).values()];
}

function nameOf(place: Place): string {
  return place.steps.map((s) => `${s.key}${s.array ? '[]' : ''}`).join('.');
}

/** A free key the schema allows, given a name (a login body's field, a header). */
function concrete(key: string): string {
  return key === ANY ? 'X-Any-Field' : key;
}

/** The credential places the predicate does not cover (its answer for the field with a string in it). */
function uncovered(places: readonly Place[], kindOf = credentialKind): string[] {
  return places
    .filter((place) => {
      const path = place.steps.map((s) => concrete(s.key));
      const key = path.at(-1) ?? '';
      const parent: Record<string, unknown> = { [key]: 'a-credential-value' };
      if (place.inJwk) parent.kty = 'RSA';
      return kindOf(path, parent) === undefined;
    })
    .map((place) => `${nameOf(place)} (${place.why})`);
}

/** A profile with `marker` at the place (the JWK's `oth` an array of objects holding it). */
function profileWith(place: Place, marker: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let at = root;
  place.steps.forEach((step, i) => {
    const key = concrete(step.key);
    const last = i === place.steps.length - 1;
    if (last) {
      const value = step.array ? [{ r: marker, d: marker, t: marker }] : marker;
      at[key] = value;
      return;
    }
    const next: Record<string, unknown> = place.inJwk && i === place.steps.length - 2 ? { kty: 'RSA' } : {};
    at[key] = step.array ? [next] : next;
    at = next;
  });
  return root;
}

test('the schema walk finds the credentials the docs name', () => {
  const names = credentialPlaces().map(nameOf);
  // A spot check of the walk itself, so an empty walk cannot pass the tests below.
  expect(names).toEqual(
    expect.arrayContaining([
      'identities.admin.bearer',
      'identities.admin.basic.username',
      'identities.user.token.oauth2.clientId',
      'identities.ratelimit.token.login.json.*',
      'jwt.privateJwk',
      'jwt.privateJwk.oth[]',
      'jwt.publicJwk.d',
      'jwt.secret',
      'tls.key',
    ]),
  );
});

test('every field of the profile schema that takes a credential is one the secrets predicate covers', () => {
  expect(uncovered(credentialPlaces())).toEqual([]);
});

test('a credential at any of those fields leaves neither through the statement nor, if secret, the reports', () => {
  credentialPlaces().forEach((place, i) => {
    const marker = `credential-marker-${i}-${nameOf(place)}`;
    const profile = profileWith(place, marker);
    const statement = JSON.stringify(redactProfile(profile, {}));
    expect(statement, nameOf(place)).not.toContain(marker);
    expect(statement, nameOf(place)).toContain(REDACTED);
    const path = place.steps.map((s) => concrete(s.key));
    const parent = { [path.at(-1) ?? '']: marker, ...(place.inJwk ? { kty: 'RSA' } : {}) };
    if (credentialKind(path, parent) === 'secret')
      expect(profileSecrets(profile, {}), nameOf(place)).toContain(marker);
  });
});

test('a credential from a variable: its value is a secret when set; when it is not set, nothing is (its name is what the error must show)', () => {
  const profile = {
    identities: { admin: { basic: { username: 'admin', password: { env: 'GUEST_ADMIN_PASSWORD' } } } },
  };
  expect(profileSecrets(profile, { GUEST_ADMIN_PASSWORD: 's3cret-value' })).toContain('s3cret-value');
  // Seen failing at the merge of #36 and #40: the unset reference's name was taken for a secret and redacted out of
  // "needs environment variable GUEST_ADMIN_PASSWORD, which is not set".
  expect(profileSecrets(profile, {})).not.toContain('GUEST_ADMIN_PASSWORD');
});
