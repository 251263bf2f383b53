/**
 * Shared material for the mock's HTTP tests: a raw node:http client (the tests must see every field line —
 * duplicate WWW-Authenticate lines, duplicate Authorization lines — which fetch joins or refuses), a raw
 * socket sender for bytes no HTTP client would send, the demo credentials, and a token minter over the
 * test-only private keys.
 */

import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { type Challenge, param, parseWwwAuthenticate } from '../../specs/lib/www-authenticate.ts';
import type { IdentityCredentials, Profile } from '../../specs/profile/types.ts';

export const fixture = (path: string): string =>
  fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));

export const PROFILE = JSON.parse(readFileSync(fixture('mock.profile.json'), 'utf8')) as Profile;
export const ADMIN = PROFILE.identities.admin as Required<IdentityCredentials>;
export const USER = PROFILE.identities.user as Required<IdentityCredentials>;

export type SchemeName = 'bearer' | 'basic' | 'apikey';
export const SCHEMES: readonly SchemeName[] = ['bearer', 'basic', 'apikey'];

/** The Authorization value for an identity and scheme. */
export function authorization(identity: Required<IdentityCredentials>, scheme: SchemeName): string {
  if (scheme === 'bearer') return `Bearer ${identity.bearer}`;
  if (scheme === 'apikey') return `Apikey ${identity.apikey}`;
  const { username, password } = identity.basic;
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** Well-formed credentials that do not verify, per scheme. */
export const WRONG: Readonly<Record<SchemeName, string>> = {
  bearer: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.c2lnbmF0dXJl',
  basic: `Basic ${Buffer.from('alice:not-the-password').toString('base64')}`,
  apikey: 'Apikey gck_000000000000000000000000000000',
};

/** Malformed credentials (not token68, or no token at all) per scheme → 400. */
export const MALFORMED: Readonly<Record<SchemeName, string>> = {
  bearer: 'Bearer two tokens',
  basic: 'Basic not base64!',
  apikey: 'Apikey',
};

export interface Answer {
  readonly status: number;
  /** Field lines as received, names lower-cased, in order. */
  readonly lines: ReadonlyArray<readonly [string, string]>;
  readonly text: string;
  header(name: string): string | undefined;
  all(name: string): string[];
  json(): Record<string, unknown>;
}

export interface CallOptions {
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
}

/** One request with node:http (no retries, no header joining); resolves with every field line. */
export function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const lines: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          lines.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string]);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          lines,
          text,
          header: (name) => lines.find(([n]) => n === name)?.[1],
          all: (name) => lines.filter(([n]) => n === name).map(([, v]) => v),
          json: () => JSON.parse(text) as Record<string, unknown>,
        });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends bytes on a fresh connection and returns everything the server wrote before closing (or timeout). */
export function rawExchange(base: string, data: string | Buffer, waitMs = 2_000): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks).toString('latin1'))) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(data);
  });
}

/**
 * RFC 9112 §9.6, as a proxy still sending meets it: sends `head` (a request declaring `length` body bytes) and
 * waits for the answer that comes before any body byte; then sends the body and `next` on the same connection.
 * Returns the first answer, and whether `next` was answered (the refused body drained, the connection kept).
 */
export async function answerBeforeBody(
  base: string,
  head: string,
  length: number,
  next = 'GET /users HTTP/1.1\r\nHost: x\r\n\r\n',
): Promise<{ first: string; nextAnswered: boolean }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d: Buffer) => {
    received += d.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const until = async (pattern: RegExp, ms: number): Promise<boolean> => {
    const end = Date.now() + ms;
    while (!pattern.test(received) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return pattern.test(received);
  };
  try {
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(head);
    await until(/^HTTP\/1\.1 \d{3} [\s\S]*?\r\n\r\n/, 5_000);
    const first = received;
    socket.write('x'.repeat(length));
    socket.write(next);
    const nextAnswered = await until(/^HTTP\/1\.1 [\s\S]*HTTP\/1\.1 \d{3} /, 5_000);
    return { first, nextAnswered };
  } finally {
    socket.destroy();
    await closed;
  }
}

/** One whole response received (head, and as many body bytes as Content-Length says): no need to wait. */
function complete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  if (length === null) return /^HTTP\/1\.1 (204|304)/.test(text);
  return Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(length[1]);
}

/** `HTTP/1.1 431 …` → 431. */
export function rawStatus(response: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(response)?.[1] ?? 0);
}

/**
 * RFC 9457: the body is problem+json whose `status` equals the HTTP status, with type/title/detail; and
 * nothing in it looks like a stack trace or a credential.
 */
export function expectProblem(answer: Answer, status: number): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.header('content-type')).toBe('application/problem+json');
  const body = answer.json();
  expect(body.status).toBe(status);
  expect(typeof body.type).toBe('string');
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expectNoLeak(answer.text);
  return body;
}

export function expectNoLeak(text: string): void {
  expect(text).not.toMatch(/\bat .+:\d+:\d+\)?/); // a V8 stack frame
  expect(text).not.toContain('node_modules');
  for (const identity of [ADMIN, USER]) {
    expect(text).not.toContain(identity.bearer);
    expect(text).not.toContain(identity.apikey);
    expect(text).not.toContain(identity.basic.password);
  }
}

/** Every WWW-Authenticate field line, parsed with the suite's RFC 9110 §11.6.1 parser (strict grammar). */
export function challenges(answer: Answer): Challenge[] {
  const lines = answer.all('www-authenticate');
  const parsed = parseWwwAuthenticate(lines);
  expect(parsed, `WWW-Authenticate must follow RFC 9110 §11.6.1: ${JSON.stringify(lines)}`).toBeDefined();
  return parsed ?? [];
}

/** `[['bearer', undefined], ['basic', undefined]]`: each challenge's scheme and its `error` parameter. */
export function challengeSummary(answer: Answer): Array<[string, string | undefined]> {
  return challenges(answer).map((c) => [c.schemeLower, param(c, 'error')]);
}

export { param };

// ---------------------------------------------------------------------------------------------------------
// Tokens signed with the test-only private keys (fixtures/keys/README.md).

const PRIVATE = JSON.parse(readFileSync(fixture('keys/private.jwks.json'), 'utf8')) as { keys: JWK[] };
export const PUBLIC = JSON.parse(readFileSync(fixture('keys/jwks.json'), 'utf8')) as { keys: JWK[] };

export const ISSUER = 'https://mock.gatecheck.local/';
export const AUDIENCE = 'gatecheck-mock';

export async function mint(
  claims: JWTPayload,
  options: { alg?: 'RS256' | 'ES256'; expiresIn?: number; notBefore?: number } = {},
): Promise<string> {
  const alg = options.alg ?? 'RS256';
  const jwk = PRIVATE.keys.find((k) => k.alg === alg) as JWK;
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ iss: ISSUER, aud: AUDIENCE, iat: now, ...claims })
    .setProtectedHeader({ alg, kid: jwk.kid as string, typ: 'JWT' })
    .setExpirationTime(now + (options.expiresIn ?? 600));
  if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
  return jwt.sign(await importJWK(jwk, alg));
}

export const b64url = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
