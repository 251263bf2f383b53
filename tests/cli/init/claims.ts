/**
 * An independent reading of what a profile written by `gatecheck init` claims, checked against the OpenAPI
 * document it came from — written apart from cli/init so that the two do not share a mistake. Each claim of
 * the profile must be one the document makes (OpenAPI 3.1 §4.8.30 Security Requirement Object, §4.8.27
 * Security Scheme Object, §4.8.5 Server Object):
 * - a scheme listed on an endpoint is one requirement object of the operation holding that scheme alone;
 * - a public endpoint's operation has no requirement, or an empty one among them, or its own words, quoted in
 *   the to-do, say it is not authenticated;
 * - the endpoint's operation is sent to the profile's baseUrl (one of its servers, §4.8.1 alternatives);
 * - a key's scheme word is the one the document states (none, `""`, when it shows the key alone after
 *   `Authorization:`), or a to-do line says it was assumed;
 * - the collection's declared statuses are the document's.
 */
import { isRecord } from '../../../shared/is-record.ts';

type Json = Record<string, unknown>;

/** The profile scheme a Security Scheme Object sends in Authorization, read the plain way; undefined: none. */
function profileSchemeOf(scheme: Json): string | undefined {
  const http = String(scheme.scheme ?? '').toLowerCase();
  if (scheme.type === 'http') return http === 'bearer' || http === 'basic' ? http : undefined;
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'bearer';
  if (
    scheme.type === 'apiKey' &&
    scheme.in === 'header' &&
    String(scheme.name).toLowerCase() === 'authorization'
  )
    return /^\s*bearer\b|Authorization:\s*Bearer\b|\bbearer[`"']?\s+prefix\b|prefix(ed)?\s+with\s+[`"']?bearer\b/i.test(
      String(scheme.description ?? ''),
    )
      ? 'bearer'
      : 'apikey';
  return undefined;
}

function operationOf(
  doc: Json,
  path: string,
  method: string,
): { op: Json; item: Json; template: string } | undefined {
  const paths = isRecord(doc.paths) ? doc.paths : {};
  // The whole path first; then as the end of it (a relative server's prefix kept on the path).
  for (const anchor of ['^', '']) {
    for (const [template, item] of Object.entries(paths)) {
      if (!isRecord(item)) continue;
      const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      const op = item[method.toLowerCase()];
      if (isRecord(op) && new RegExp(`${anchor}${escaped}$`).test(path)) return { op, item, template };
    }
  }
  return undefined;
}

/** Every server the operation may be sent to (§4.8.1: the list's servers are alternatives), variables at defaults. */
function serversOf(doc: Json, item: Json, op: Json): string[] {
  const list = [op.servers, item.servers, doc.servers].find((l) => Array.isArray(l) && l.length > 0) as
    | Json[]
    | undefined;
  return (list ?? []).filter(isRecord).map((server) => {
    // An operation's server written as the document's (Sentry's) takes the document's variables when it has none.
    const documentServer = Array.isArray(doc.servers)
      ? doc.servers.find((d) => isRecord(d) && d.url === server.url)
      : undefined;
    const inherited =
      isRecord(documentServer) && isRecord(documentServer.variables) ? documentServer.variables : {};
    const variables = isRecord(server.variables) ? server.variables : inherited;
    return String(server.url).replace(/\{([^}]+)\}/g, (w, n: string) => {
      const v = variables[n];
      return isRecord(v) && v.default !== undefined ? String(v.default) : w;
    });
  });
}

/**
 * A public endpoint whose operation states a requirement is founded only on the operation's own words: the
 * to-do line of the public endpoint quotes a sentence saying it is not authenticated, and that sentence is in
 * the operation's summary or description or its tags' descriptions, whitespace aside.
 */
function saysNotAuthenticated(doc: Json, op: Json, todo: readonly string[]): boolean {
  const flat = (t: unknown) => (typeof t === 'string' ? t.replace(/\s+/g, ' ') : '');
  const tags = Array.isArray(doc.tags) ? doc.tags.filter(isRecord) : [];
  const own = [
    op.summary,
    op.description,
    ...tags.filter((t) => Array.isArray(op.tags) && op.tags.includes(t.name)).map((t) => t.description),
  ]
    .map(flat)
    .join(' ');
  return todo
    .filter((t) => t.startsWith('/endpoints/public:'))
    .flatMap((t) => [...t.matchAll(/says "([^"]+)"/g)].map((m) => m[1] ?? ''))
    .some((q) => /\bnot (authenticated|require authentication)\b/i.test(q) && own.includes(q));
}

/** Every claim of `profile` the document does not make, one line each; empty when there is none. */
export function unfoundedClaims(doc: Json, profile: Json): string[] {
  const problems: string[] = [];
  const components = isRecord(doc.components) ? doc.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  const endpoints = isRecord(profile.endpoints) ? profile.endpoints : {};
  const todo = Array.isArray(profile.todo) ? profile.todo.map(String) : [];
  for (const role of ['public', 'protected', 'admin', 'collection'] as const) {
    const e = endpoints[role];
    if (!isRecord(e)) continue;
    const method = role === 'collection' ? 'POST' : String(e.method ?? 'GET');
    const found = operationOf(doc, String(e.path), method);
    if (found === undefined) {
      problems.push(`${role}: ${method} ${String(e.path)} is no operation of the document`);
      continue;
    }
    const { op, item, template } = found;
    const requirements = (
      Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : []
    ).filter(isRecord);
    if (
      role === 'public' &&
      !(requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) &&
      !saysNotAuthenticated(doc, op, todo)
    )
      problems.push(`public: ${method} ${template} has a security requirement`);
    const listed = (role === 'collection' ? e.writeSchemes : e.schemes) as unknown;
    for (const s of Array.isArray(listed) ? listed.map(String) : []) {
      const alone = requirements.some((r) => {
        const names = Object.keys(r);
        const scheme = schemes[names[0] as string];
        return names.length === 1 && isRecord(scheme) && profileSchemeOf(scheme) === s;
      });
      if (!alone) problems.push(`${role}: ${method} ${template} accepts no ${s} credential alone`);
    }
    const servers = serversOf(doc, item, op).filter((u) => /^https?:/.test(u));
    if (
      typeof profile.baseUrl === 'string' &&
      servers.length > 0 &&
      !servers.some((u) => u.replace(/\/+$/, '') === profile.baseUrl)
    )
      problems.push(
        `${role}: ${method} ${template} is sent to ${servers.join(' or ')}, not the profile's ${profile.baseUrl}`,
      );
    if (role === 'collection' && isRecord(e.declaredStatuses)) {
      const responses = isRecord(op.responses) ? Object.keys(op.responses) : [];
      const post = e.declaredStatuses.post;
      if (post !== undefined && !responses.includes(String(post)))
        problems.push(`collection: POST ${template} declares no ${String(post)}`);
    }
  }
  // A key sent with a word: the profile's (default the seed's Apikey) must be the document's, or said to be assumed.
  if (JSON.stringify(endpoints).includes('"apikey"') || typeof profile.apikeyScheme === 'string') {
    const word = typeof profile.apikeyScheme === 'string' ? profile.apikeyScheme : 'Apikey';
    const keys = Object.values(schemes).filter(
      (s) => isRecord(s) && profileSchemeOf(s) === 'apikey',
    ) as Json[];
    // Each word of the form (`Token`, `Token token=`) written in the scheme's own text — its description or an
    // x- field — or in an example of an operation's Authorization header, as a whole word in any case.
    const parts = word.replace(/=$/, '').split(' ').filter(Boolean);
    const headerExamples = Object.values(isRecord(doc.paths) ? doc.paths : {})
      .filter(isRecord)
      .flatMap((item) => [
        item.parameters,
        ...Object.values(item).map((o) => (isRecord(o) ? o.parameters : [])),
      ])
      .flatMap((list) => (Array.isArray(list) ? list.filter(isRecord) : []))
      .filter((p) => p.in === 'header' && String(p.name).toLowerCase() === 'authorization')
      .map((p) =>
        JSON.stringify([p.example, p.description, isRecord(p.schema) ? p.schema.example : undefined]),
      )
      .join(' ');
    const stated = keys.some((k) => {
      if (k['x-gatecheck-apikey-scheme'] === word) return true;
      const text = `${JSON.stringify(Object.entries(k).filter(([n]) => n === 'description' || n.startsWith('x-')))} ${headerExamples ?? ''}`;
      // The key alone (`""`): the header shown with nothing but a stand-in for the key after its name.
      if (word === '')
        return /Authorization:\s*(<[^<>\s]+>|\{[^{}]+\}|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\s*([`"'.,;]|$)/.test(text);
      return (
        parts.length > 0 &&
        parts.every((p) =>
          new RegExp(`(^|[^\\w-])${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}([^\\w-]|$)`, 'i').test(text),
        )
      );
    });
    if (!stated && !todo.some((t) => t.startsWith('/apikeyScheme:') && t.includes('assumed')))
      problems.push(
        `apikeyScheme: keys sent as "${word} <key>", which the document neither states nor is said to assume`,
      );
  }
  return problems;
}
