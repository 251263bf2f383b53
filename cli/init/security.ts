/**
 * What each Security Scheme Object (OpenAPI 3.1 §4.8.27, 3.0 §4.7.33) puts in the Authorization header, and
 * what an operation's Security Requirement Objects (3.1 §4.8.30, 3.0 §4.7.36) then ask for, read as OpenAPI
 * states them: the objects of a `security` list are alternatives (any one suffices), the schemes inside one
 * object are all required at once, an empty object makes security optional, `security: []` on an operation
 * removes the document's requirement, and an operation's `security` replaces the document's.
 *
 * The profile can express an alternative only when it is one scheme that travels in Authorization: `http`
 * bearer and basic; `oauth2` (any flow) and `openIdConnect`, whose access tokens are Bearer tokens (RFC 6750
 * §2.1); an `apiKey` in the Authorization header, sent with its own scheme word. Everything else — two
 * schemes at once, a key in another header, a query or a cookie, another HTTP scheme — is named, never
 * weakened into a claim the document does not make.
 */
import { X_APIKEY_SCHEME } from '../../shared/openapi-extensions.ts';
import { isObject } from './document-extensions.ts';
import { formFromText, keyFormOf, keySentence } from './key-form.ts';

type Json = Record<string, unknown>;
export type ProfileScheme = 'bearer' | 'basic' | 'apikey';

/** RFC 9110 §5.6.2 token: an auth-scheme or auth-param name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface Carrier {
  readonly name: string;
  /** Undefined: not sent in Authorization, or not in a way the profile takes (`why` says how it is sent). */
  readonly scheme: ProfileScheme | undefined;
  readonly why: string;
  /**
   * Bearer: the static kind of token it stands for — its own name for `http` bearer and a key sent as
   * Bearer; undefined for `oauth2`/`openIdConnect`, whose tokens any Bearer kind of the document may be.
   */
  readonly kind: string | undefined;
  /** apikey: the scheme word (X_APIKEY_SCHEME's forms), undefined when the document does not state it. */
  readonly word: string | undefined;
  /** Where `word` was read, for the to-do line. */
  readonly wordFrom: string | undefined;
  /** apikey without a word: the sentence of its description that speaks of the key, quoted in the to-do. */
  readonly said?: string | undefined;
  /** oauth2: a flow whose token the suite can fetch itself (RFC 6749 §4.4 client credentials, §4.3 password). */
  readonly flow: { readonly grant: 'client_credentials' | 'password'; readonly tokenUrl: string } | undefined;
  /** oauth2: every flow's scopes; openIdConnect: none. */
  readonly scopes: readonly string[];
  /** oauth2 without such a flow, openIdConnect: where a person gets a token. */
  readonly interactive: string | undefined;
}

/**
 * The key's form a description states (key-form.ts: a header example, a format, a prefix); kept under its
 * old name for the readers that call it.
 */
export function wordFromDescription(description: unknown): string | undefined {
  return typeof description === 'string' ? formFromText(description) : undefined;
}

/** A carrier's fields that only some kinds fill, empty. */
const NONE = {
  kind: undefined,
  word: undefined,
  wordFrom: undefined,
  flow: undefined,
  scopes: [],
  interactive: undefined,
} as const;

function apiKeyCarrier(name: string, raw: Json, doc: Json): Carrier {
  const none = NONE;
  const where = `apiKey ${String(raw.name)} in ${String(raw.in)}`;
  if (raw.in !== 'header' || String(raw.name).toLowerCase() !== 'authorization')
    return { name, scheme: undefined, why: `${where}: a key sent outside the Authorization header`, ...none };
  const x = raw[X_APIKEY_SCHEME];
  const stated =
    typeof x === 'string' &&
    (x === '' || x.split(' ').every((w, i) => TOKEN.test(i === 1 ? w.replace(/=$/, '') : w)))
      ? x
      : undefined;
  const read = stated === undefined ? keyFormOf(raw, doc) : undefined;
  const word = stated ?? read?.form;
  const wordFrom = stated !== undefined ? X_APIKEY_SCHEME : read?.from;
  if (word !== undefined && word.toLowerCase() === 'bearer')
    return {
      name,
      scheme: 'bearer',
      why: `${where}, sent as Bearer (${wordFrom})`,
      ...none,
      kind: name,
      wordFrom,
    };
  if (word !== undefined && word.toLowerCase() === 'basic')
    return { name, scheme: 'basic', why: `${where}, sent as Basic (${wordFrom})`, ...none, wordFrom };
  return { name, scheme: 'apikey', why: where, ...none, word, wordFrom, said: keySentence(raw.description) };
}

function oauth2Carrier(name: string, raw: Json): Carrier {
  const flows = isObject(raw.flows) ? raw.flows : {};
  const scopes = new Set<string>();
  for (const flow of Object.values(flows))
    if (isObject(flow) && isObject(flow.scopes)) for (const s of Object.keys(flow.scopes)) scopes.add(s);
  const fetchable = (['clientCredentials', 'password'] as const)
    .map((key) => ({ key, flow: flows[key] }))
    .find(({ flow }) => isObject(flow) && typeof flow.tokenUrl === 'string');
  const flow =
    fetchable === undefined
      ? undefined
      : {
          grant: fetchable.key === 'password' ? ('password' as const) : ('client_credentials' as const),
          tokenUrl: String((fetchable.flow as Json).tokenUrl),
        };
  const interactive = Object.entries(flows)
    .filter(([, f]) => isObject(f))
    .map(([key, f]) => `${key} at ${String((f as Json).authorizationUrl ?? (f as Json).tokenUrl ?? '?')}`)
    .join(', ');
  return {
    name,
    scheme: 'bearer',
    why: `oauth2 (${Object.keys(flows).join(', ') || 'no flow'}): access tokens sent as Bearer (RFC 6750 §2.1)`,
    kind: undefined,
    word: undefined,
    wordFrom: undefined,
    flow,
    // The scopes a fetched token can ask for are its flow's; a person's flow may grant any of them.
    scopes:
      fetchable !== undefined && isObject((fetchable.flow as Json).scopes)
        ? Object.keys((fetchable.flow as Json).scopes as Json)
        : [...scopes],
    interactive: flow === undefined ? interactive || undefined : undefined,
  };
}

/** Every scheme of `components.securitySchemes`, read for what it puts in Authorization. */
export function readCarriers(doc: Json): Map<string, Carrier> {
  const out = new Map<string, Carrier>();
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const none = NONE;
  for (const [name, raw] of Object.entries(schemes)) {
    if (!isObject(raw) || typeof raw.type !== 'string') {
      out.set(name, {
        name,
        scheme: undefined,
        why: 'not a Security Scheme Object the document resolves',
        ...none,
      });
      continue;
    }
    const http = String(raw.scheme ?? '').toLowerCase();
    if (raw.type === 'http' && http === 'bearer')
      out.set(name, { name, scheme: 'bearer', why: 'http bearer', ...none, kind: name });
    else if (raw.type === 'http' && http === 'basic')
      out.set(name, { name, scheme: 'basic', why: 'http basic', ...none });
    else if (raw.type === 'apiKey') out.set(name, apiKeyCarrier(name, raw, doc));
    else if (raw.type === 'oauth2') out.set(name, oauth2Carrier(name, raw));
    else if (raw.type === 'openIdConnect')
      out.set(name, {
        name,
        scheme: 'bearer',
        why: 'openIdConnect: access tokens sent as Bearer (RFC 6750 §2.1)',
        ...none,
        interactive:
          typeof raw.openIdConnectUrl === 'string' ? `the provider at ${raw.openIdConnectUrl}` : undefined,
      });
    else
      out.set(name, {
        name,
        scheme: undefined,
        why: `${raw.type}${http ? ` ${http}` : ''}: not a scheme gatecheck checks (Bearer, Basic, a key in Authorization)`,
        ...none,
      });
  }
  return out;
}

/**
 * The profile has one credential per scheme and identity: of several Bearer kinds (two `http` bearer schemes,
 * OpenAI's project and admin keys) it keeps the one most operations accept, and of several key words the most
 * used. Returns the carriers the profile keeps; the others are reported as another kind.
 */
export function keepOneKindEach(
  carriers: ReadonlyMap<string, Carrier>,
  uses: ReadonlyMap<string, number>,
): { readonly kept: Map<string, Carrier>; readonly dropped: Carrier[] } {
  const count = (c: Carrier) => uses.get(c.name) ?? 0;
  const most = (list: Carrier[]) =>
    [...list].sort((a, b) => count(b) - count(a) || a.name.localeCompare(b.name))[0];
  const bearerKinds = [...carriers.values()].filter((c) => c.scheme === 'bearer' && c.kind !== undefined);
  const keys = [...carriers.values()].filter((c) => c.scheme === 'apikey');
  const bearer = most(bearerKinds);
  const key = most(keys);
  const kept = new Map<string, Carrier>();
  const dropped: Carrier[] = [];
  for (const c of carriers.values()) {
    if (c.scheme === undefined) continue;
    const other =
      (c.scheme === 'bearer' && c.kind !== undefined && c !== bearer) ||
      (c.scheme === 'apikey' && c !== key && c.word !== key?.word);
    const main = c.scheme === 'bearer' ? bearer : key;
    if (other)
      dropped.push({
        ...c,
        scheme: undefined,
        why: `${c.why}: another ${c.scheme === 'bearer' ? 'Bearer token' : 'key'} than ${main?.name}'s, and the profile holds one per identity`,
      });
    else kept.set(c.name, c);
  }
  return { kept, dropped };
}

export interface Access {
  /** OpenAPI's reading: no requirement, or an empty one among the alternatives. */
  readonly public: boolean;
  /** The profile schemes of the alternatives the profile can express. */
  readonly schemes: readonly ProfileScheme[];
  /** Scopes (oauth2) and roles (other schemes, OpenAPI 3.1) those alternatives name. */
  readonly needs: readonly string[];
  /** The fewest scopes or roles one of those alternatives asks for. */
  readonly least: number;
  /** The schemes of an alternative that names no scope or role: any valid credential in one is let in. */
  readonly open: readonly ProfileScheme[];
  /** The alternatives the profile cannot express, described. */
  readonly inexpressible: readonly string[];
}

/** How to describe a requirement object in a to-do line: `{BearerAuth + X-Api-Key}`. */
function describe(requirement: Json): string {
  return `{${Object.keys(requirement).join(' + ')}}`;
}

/** The requirement list that applies to an operation: its own `security`, else the document's. */
export function requirementsOf(doc: Json, op: Json): Json[] | undefined {
  const list = Array.isArray(op.security)
    ? op.security
    : Array.isArray(doc.security)
      ? doc.security
      : undefined;
  return list?.filter(isObject);
}

export function accessOf(
  requirements: readonly Json[] | undefined,
  kept: ReadonlyMap<string, Carrier>,
  all: ReadonlyMap<string, Carrier>,
): Access {
  const list = requirements ?? [];
  const isPublic = list.length === 0 || list.some((r) => Object.keys(r).length === 0);
  const schemes = new Set<ProfileScheme>();
  const needs = new Set<string>();
  const open = new Set<ProfileScheme>();
  const inexpressible: string[] = [];
  let least = Number.POSITIVE_INFINITY;
  for (const requirement of list) {
    const names = Object.keys(requirement);
    if (names.length === 0) continue;
    const only = names.length === 1 ? kept.get(names[0] as string) : undefined;
    if (only?.scheme === undefined) {
      const why =
        names.length > 1
          ? 'all at once'
          : all.has(names[0] as string)
            ? (all.get(names[0] as string)?.why ?? '')
            : 'a scheme the document does not define';
      inexpressible.push(`${describe(requirement)} (${why})`);
      continue;
    }
    schemes.add(only.scheme);
    const listed = requirement[only.name];
    const named = Array.isArray(listed) ? listed.map(String) : [];
    for (const n of named) needs.add(n);
    if (named.length === 0) open.add(only.scheme);
    least = Math.min(least, named.length);
  }
  return {
    public: isPublic,
    schemes: (['bearer', 'basic', 'apikey'] as const).filter((s) => schemes.has(s)),
    needs: [...needs],
    least: Number.isFinite(least) ? least : 0,
    open: (['bearer', 'basic', 'apikey'] as const).filter((s) => open.has(s)),
    inexpressible,
  };
}
