/**
 * The real @fastify/rate-limit plugin (a dev dependency), on a loopback port of its own, in front of an upstream
 * (the mock) or answering 200 itself: what the politeness bench's `fastify-real` row runs against and what
 * tests/mock/access/fastify-real.test.ts checks the mock's emulation with (fixtures/limiters/fastify.mock.json).
 * Every request goes through the plugin's not-found handler with its `preHandler` (the plugin's documented
 * way to limit every route), so any method and path reaches the upstream as sent; bodies pass as bytes.
 */
import { request as httpRequest } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { parseAuthorization } from '../mock/auth/authorization-header.ts';

export interface FastifyLimiterOptions {
  /** Requests per window per client address (the plugin's `max`). */
  readonly max: number;
  readonly timeWindowMs: number;
  /** Limited answers before the plugin answers 403 for the rest of the window (its `ban`); absent: no ban. */
  readonly ban?: number;
  /** Where allowed requests go; absent: answered 200 `{}` here. */
  readonly upstream?: string;
  /** Count only requests without a credential, no Authorization field or an empty one (DRF's anon rate). */
  readonly anonymousOnly?: boolean;
  /**
   * Count per credential as parsed — the scheme's case and the spaces after it left out (RFC 9110 §11.1), as a
   * gateway keying its API key or token does (the plugin's `keyGenerator`) — and requests without one per
   * address. Absent: per address.
   */
  readonly perParsedCredential?: boolean;
}

export interface RunningFastifyLimiter {
  readonly url: string;
  /** Requests the plugin has counted so far (with `anonymousOnly`, those without a credential). */
  counted(): number;
  /** The most requests it counted under one key (per address: all of them). */
  busiest(): number;
  /** When each request it counted came (epoch ms, in order): its counter over time (bench/counter-trace.ts). */
  countedAt(): readonly number[];
  stop(): Promise<void>;
}

/**
 * The plugin's key per parsed credential — the scheme lower-cased and the spaces after it left out (RFC 9110
 * §11.1, the mock's parser), so `bearer X` and `Bearer  X` are one — else the address (`ip`, its default key).
 */
function keyOf(req: { headers: { authorization?: string }; ip: string }): string {
  const value = req.headers.authorization;
  if (!value) return req.ip;
  const parsed = parseAuthorization(value);
  return `credential ${parsed === undefined ? value : `${parsed.scheme} ${parsed.credentials ?? ''}`}`;
}

export async function startFastifyLimiter(options: FastifyLimiterOptions): Promise<RunningFastifyLimiter> {
  // The requests the plugin counts: every one, or (anonymousOnly) those without a credential — no Authorization
  // field, or an empty one (Node strips a field value's surrounding whitespace, RFC 9110 §5.5), which DRF's
  // authentication also leaves unauthenticated (`get_authorization_header(request).split()` is empty).
  const counts = (req: { headers: { authorization?: string } }): boolean =>
    !options.anonymousOnly || !req.headers.authorization;
  const app = Fastify({ logger: false, exposeHeadRoutes: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  await app.register(rateLimit, {
    global: false,
    max: options.max,
    timeWindow: options.timeWindowMs,
    ...(options.ban === undefined ? {} : { ban: options.ban }),
    ...(options.anonymousOnly ? { allowList: (req) => !counts(req) } : {}),
    ...(options.perParsedCredential ? { keyGenerator: keyOf } : {}),
  });
  let counted = 0;
  const at: number[] = [];
  const perKey = new Map<string, number>();
  app.addHook('onRequest', (req, _reply, done) => {
    if (counts(req)) {
      counted++;
      at.push(Date.now());
      const key = options.perParsedCredential ? keyOf(req) : 'address';
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
    }
    done();
  });
  const upstream = options.upstream === undefined ? undefined : new URL(options.upstream);
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (req, reply) =>
    upstream === undefined ? reply.code(200).send({}) : forward(upstream, req, reply),
  );
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    counted: () => counted,
    busiest: () => Math.max(0, ...perKey.values()),
    countedAt: () => at,
    stop: () => app.close(),
  };
}

/** Sends the request on to `upstream` as it came (method, target, field lines, body) and relays the answer. */
function forward(upstream: URL, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.hijack();
  const raw = req.raw;
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    const name = raw.rawHeaders[i] ?? '';
    if (name.toLowerCase() === 'host') continue;
    headers.push([name, raw.rawHeaders[i + 1] ?? '']);
  }
  headers.push(['Host', upstream.host]);
  return new Promise((resolve) => {
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: raw.method,
        path: raw.url,
        headers: headers.flat(),
        agent: false,
      },
      (res) => {
        // The plugin's own fields (X-RateLimit-*) were set on the reply; the upstream's answer keeps them.
        const own = reply.getHeaders();
        const lines: string[] = [];
        for (const [k, v] of Object.entries(own)) if (v !== undefined) lines.push(k, String(v));
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          lines.push(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
        raw.socket?.setNoDelay(true);
        reply.raw.writeHead(res.statusCode ?? 502, lines);
        res.pipe(reply.raw);
        res.on('end', () => resolve());
        res.on('error', () => resolve());
      },
    );
    out.on('error', () => {
      reply.raw.writeHead(502, { 'content-type': 'text/plain' });
      reply.raw.end('upstream unreachable');
      resolve();
    });
    const body = req.body;
    out.end(Buffer.isBuffer(body) ? body : undefined);
  });
}
