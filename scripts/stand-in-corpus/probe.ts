/**
 * A probe of the stand-in's data half on a corpus document (issue #70): create → read back → filter → replace
 * → delete → read (404) → a schema-invalid body (400), and the document's special operations (a login with a
 * wrong password), printed as a transcript — `npx tsx scripts/stand-in-corpus/probe.ts realworld sendgrid`.
 * Every request goes to the mock started in this process on 127.0.0.1.
 */
import { startMock } from '../../mock/server.ts';
import { documentPath } from './documents.ts';

type Json = Record<string, unknown>;
type Env = Record<string, string>;

interface Step {
  readonly method: string;
  /** Under the document's server path; `{key}` is the created item's key. */
  readonly path: string;
  readonly body?: unknown;
  /** Sent without credentials. */
  readonly anonymous?: boolean;
}

interface Probe {
  /** The document's server path (`/api`). */
  readonly base: string;
  readonly auth: (env: Env) => Record<string, string>;
  /** Where the created item's key is in the create's answer (the Location header is read first). */
  readonly key: (created: Json) => unknown;
  readonly steps: readonly Step[];
}

const PROBES: Readonly<Record<string, Probe>> = {
  realworld: {
    base: '/api',
    auth: (env) => ({ authorization: `Token ${env.GATECHECK_ADMIN_APIKEY}` }),
    key: (made) => (made.article as Json | undefined)?.slug,
    steps: [
      {
        method: 'POST',
        path: '/articles',
        body: { article: { title: 'QA article', description: 'probe', body: 'text', tagList: ['qa'] } },
      },
      { method: 'GET', path: '/articles/{key}' },
      { method: 'GET', path: '/articles?tag=qa' },
      { method: 'GET', path: '/articles?tag=none-such' },
      { method: 'PUT', path: '/articles/{key}', body: { article: { title: 'QA article, replaced' } } },
      { method: 'GET', path: '/articles/{key}' },
      { method: 'DELETE', path: '/articles/{key}' },
      { method: 'GET', path: '/articles/{key}' },
      { method: 'GET', path: '/articles/no-such-article' },
      { method: 'POST', path: '/articles', body: { article: { title: 7 } } },
      {
        method: 'POST',
        path: '/users/login',
        anonymous: true,
        body: { user: { email: 'qa@example.com', password: 'wrong password' } },
      },
    ],
  },
  sendgrid: {
    base: '',
    auth: (env) => ({ authorization: `Apikey ${env.GATECHECK_ADMIN_APIKEY}` }),
    key: (made) => made.api_key_id,
    steps: [
      { method: 'POST', path: '/v3/api_keys', body: { name: 'QA key', scopes: ['mail.send'] } },
      { method: 'GET', path: '/v3/api_keys/{key}' },
      { method: 'GET', path: '/v3/api_keys?limit=2' },
      { method: 'PUT', path: '/v3/api_keys/{key}', body: { name: 'QA key, renamed' } },
      { method: 'GET', path: '/v3/api_keys/{key}' },
      { method: 'DELETE', path: '/v3/api_keys/{key}' },
      { method: 'GET', path: '/v3/api_keys/{key}' },
      { method: 'GET', path: '/v3/api_keys/999999' },
      { method: 'POST', path: '/v3/api_keys', body: { scopes: ['mail.send'] } },
    ],
  },
  netlify: {
    base: '/api/v1',
    auth: (env) => ({ authorization: `Bearer ${env.GATECHECK_ADMIN_BEARER}` }),
    key: (made) => made.id ?? made.site_id,
    steps: [
      { method: 'POST', path: '/sites', body: { name: 'qa-site' } },
      { method: 'GET', path: '/sites/{key}' },
      { method: 'GET', path: '/sites?name=qa-site' },
      { method: 'GET', path: '/sites?name=none-such' },
      { method: 'PATCH', path: '/sites/{key}', body: { name: 'qa-site-renamed' } },
      { method: 'GET', path: '/sites/{key}' },
      { method: 'DELETE', path: '/sites/{key}' },
      { method: 'GET', path: '/sites/{key}' },
      { method: 'GET', path: '/sites/999999' },
      { method: 'POST', path: '/sites', body: { name: 7 } },
    ],
  },
};

const clip = (text: string, n = 220) => (text.length > n ? `${text.slice(0, n)}…` : text);

async function probe(name: string, probe: Probe): Promise<string[]> {
  const mock = await startMock({ openapi: documentPath(name), port: 0 });
  const out: string[] = [`## ${name}`];
  try {
    const env = Object.fromEntries(
      ((await mock.standIn?.environment(Date.now())) ?? []).map((v) => [v.name, v.value]),
    );
    let key = '';
    for (const step of probe.steps) {
      const path = `${probe.base}${step.path.replace('{key}', encodeURIComponent(key))}`;
      const headers: Record<string, string> = step.anonymous ? {} : probe.auth(env);
      if (step.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${mock.url}${path}`, {
        method: step.method,
        headers,
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      });
      const text = await res.text();
      const location = res.headers.get('location');
      out.push(
        `${step.method} ${path}${step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`}`,
        `  → ${res.status} ${res.headers.get('content-type') ?? ''}${location ? ` Location: ${location}` : ''}`,
        ...(text ? [`    ${clip(text.replace(/\s+/g, ' '))}`] : []),
      );
      if (step.method === 'POST' && res.status < 300 && key === '') {
        const made = (text.startsWith('{') ? JSON.parse(text) : {}) as Json;
        const found = location?.split('/').pop() ?? probe.key(made);
        key = found === undefined ? '' : decodeURIComponent(String(found));
      }
    }
  } finally {
    await mock.close();
  }
  return out;
}

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(PROBES);
for (const name of names) {
  const chosen = PROBES[name];
  if (chosen === undefined) throw new Error(`no probe for ${name}: ${Object.keys(PROBES).join(', ')}`);
  console.log((await probe(name, chosen)).join('\n'));
}
