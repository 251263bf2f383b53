/**
 * Defects that change what the mock answers rather than whom it lets in: statuses, challenges, Allow,
 * problem bodies, error handling, rate-limit answers. One wrapper around the composed pipeline
 * (mock/pipeline/compose.ts) applies the active rewrites to each reply, reading what the stages recorded on
 * the exchange (the route, the rule, the failure code, the rate-limit key). A mock without these defects
 * never sees the wrapper.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Authenticator, AuthResult, Scheme } from '../auth/types.ts';
import { challenge } from '../http/challenge.ts';
import { NOT_FOUND, PROBLEM_TYPE, problem } from '../http/problem.ts';
import { jsonReply, type Reply } from '../http/reply.ts';
import type { Pipeline } from '../pipeline/compose.ts';
import { authorizationValues, refusal } from '../pipeline/credentials.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { AccessRule } from '../routing/router.ts';
import type { DefectName } from './registry.ts';

/** A reply in, the defective reply out. */
type Rewrite = (reply: Reply, exchange: Exchange) => Reply | Promise<Reply>;

export interface RepliesContext {
  readonly realm: string;
  /** The (possibly defective) authenticator, for the defects that authenticate on public routes. */
  readonly authenticator: Authenticator;
}

const ALL_SCHEMES: readonly Scheme[] = ['bearer', 'basic', 'apikey'];
const EVERY_METHOD = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** The wrapped pipeline, or `run` itself when none of `names` acts on replies. */
export function defectivePipeline(
  run: Pipeline,
  names: ReadonlySet<DefectName>,
  context: RepliesContext,
): Pipeline {
  const on = (name: DefectName): boolean => names.has(name);
  const rewrites: Rewrite[] = [];
  const { realm, authenticator } = context;

  // ------------------------------------------------------------------------------------------ authorization
  if (on('public-requires-auth')) {
    // Authentication mounted in front of every route: a public route takes any scheme, and requires one.
    const anyScheme: AccessRule = {
      public: false,
      closed: false,
      schemes: ALL_SCHEMES,
      roles: [],
      scopes: [],
      challenges: ALL_SCHEMES.map((scheme) => challenge(scheme, realm)),
      operation: 'list',
    };
    rewrites.push(async (reply, exchange) => {
      if (exchange.rule?.public !== true) return reply;
      const result = await authenticate(authenticator, exchange);
      return result.ok ? reply : refusal(result, anyScheme, realm);
    });
  }
  if (on('missing-credentials-403')) {
    const denied = problem('insufficient-permissions', 'Access denied.');
    rewrites.push((reply, exchange) =>
      reply.status === 401 && exchange.outcome === 'missing' ? denied : reply,
    );
  }
  if (on('forbidden-as-401')) {
    rewrites.push((reply, exchange) => {
      const refused = exchange.outcome === 'insufficient_role' || exchange.outcome === 'insufficient_scope';
      if (reply.status !== 403 || !refused || exchange.rule === undefined) return reply;
      return problem('authentication-required', 'Authentication required.', {
        'www-authenticate': exchange.rule.challenges as string[],
      });
    });
  }

  // --------------------------------------------------------------------------------------------- challenges
  if (on('no-www-authenticate')) {
    rewrites.push((reply) =>
      reply.status === 401 ? withHeader(reply, 'www-authenticate', undefined) : reply,
    );
  }
  if (on('single-challenge')) {
    rewrites.push((reply) =>
      reply.status === 401 ? mapChallenges(reply, (values) => values.slice(0, 1)) : reply,
    );
  }
  if (on('realm-unquoted')) {
    rewrites.push((reply) =>
      mapChallenges(reply, (values) =>
        values.map((v) => v.replace(/realm="([!#$%&'*+\-.^_`|~0-9A-Za-z]+)"/, 'realm=$1')),
      ),
    );
  }
  if (on('basic-challenge-bare')) {
    rewrites.push((reply) =>
      mapChallenges(reply, (values) => values.map((v) => (/^Basic /.test(v) ? 'Basic' : v))),
    );
  }
  if (on('basic-charset-latin1')) {
    rewrites.push((reply) =>
      mapChallenges(reply, (values) =>
        values.map((v) => v.replace('charset="UTF-8"', 'charset="ISO-8859-1"')),
      ),
    );
  }
  if (on('bearer-error-on-missing')) {
    rewrites.push((reply, exchange) =>
      reply.status === 401 && exchange.outcome === 'missing'
        ? mapChallenges(reply, (values) =>
            values.map((v) =>
              /^Bearer /.test(v)
                ? `${v}, error="invalid_token", error_description="No access token was provided"`
                : v,
            ),
          )
        : reply,
    );
  }
  if (on('bearer-no-error-code')) {
    rewrites.push((reply) =>
      reply.status === 400 || reply.status === 401
        ? mapChallenges(reply, (values) =>
            values.map((v) => v.replace(/, (?:error|error_description)="[^"]*"/g, '')),
          )
        : reply,
    );
  }
  if (on('bearer-error-wrong-status')) {
    rewrites.push((reply) =>
      reply.status === 400
        ? mapChallenges(reply, (values) =>
            values.map((v) => v.replace('error="invalid_request"', 'error="invalid_token"')),
          )
        : reply,
    );
  }
  if (on('insufficient-scope-no-challenge')) {
    rewrites.push((reply) =>
      reply.status === 403 ? withHeader(reply, 'www-authenticate', undefined) : reply,
    );
  }

  // ------------------------------------------------------------------------------------------------ routing
  if (on('unknown-path-403')) {
    const denied = problem('insufficient-permissions', 'Access denied.');
    rewrites.push((reply, exchange) =>
      reply.status === 404 && exchange.match === undefined ? denied : reply,
    );
  }
  if (on('unknown-id-200-null')) {
    const empty = jsonReply(200, null);
    rewrites.push((reply, exchange) =>
      reply.status === 404 && exchange.rule?.operation === 'read' ? empty : reply,
    );
  }
  if (on('method-404')) rewrites.push((reply) => (reply.status === 405 ? NOT_FOUND : reply));
  if (on('method-no-allow')) {
    rewrites.push((reply) => (reply.status === 405 ? withHeader(reply, 'allow', undefined) : reply));
  }
  if (on('allow-lists-all-methods')) {
    rewrites.push((reply) => (reply.status === 405 ? withHeader(reply, 'allow', EVERY_METHOD) : reply));
  }

  // --------------------------------------------------------------------------------------- success statuses
  const successStatus = (operation: string, status: 201 | 204): Rewrite => {
    return (reply, exchange) => {
      if (reply.status !== 200 || exchange.rule?.operation !== operation) return reply;
      return status === 201 ? { ...reply, status } : noContent(reply);
    };
  };
  if (on('post-201')) rewrites.push(successStatus('create', 201));
  if (on('put-204')) rewrites.push(successStatus('replace', 204));
  if (on('delete-204')) rewrites.push(successStatus('remove', 204));

  // ------------------------------------------------------------------------------------------------- errors
  if (on('public-authorization-500')) {
    rewrites.push(async (reply, exchange) => {
      if (exchange.rule?.public !== true) return reply;
      const values = authorizationValues(exchange.req.rawHeaders);
      if (values.length === 0) return reply;
      // Optional authentication: a header that is there is decoded, and a malformed one is not handled.
      const result = await authenticator.authenticate(values, ALL_SCHEMES, exchange.now);
      if (!result.ok && result.status === 400) {
        throw new TypeError("Cannot read properties of undefined (reading 'split')");
      }
      return reply;
    });
  }
  if (on('problem-status-string')) {
    rewrites.push((reply) => {
      if (reply.headers['content-type'] !== PROBLEM_TYPE || reply.body === undefined) return reply;
      const body = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
      return withBody(reply, Buffer.from(JSON.stringify({ ...body, status: String(body.status) })));
    });
  }

  // ------------------------------------------------------------------------------------------ rate limiting
  if (on('retry-after-iso-date')) {
    rewrites.push((reply, exchange) => {
      const value = reply.headers['retry-after'];
      if (value === undefined) return reply;
      const at = new Date(exchange.now + Number(value) * 1000);
      return withHeader(reply, 'retry-after', at.toISOString());
    });
  }
  if (on('rate-limit-never-resets')) {
    // INCR without EXPIRE: a key once over its limit stays over it.
    const limited = new Map<string, Reply>();
    rewrites.push((reply, exchange) => {
      const key = exchange.clientKey;
      if (key === undefined) return reply;
      if (reply.status === 429) {
        limited.set(key, reply);
        return reply;
      }
      return reply.status < 400 ? (limited.get(key) ?? reply) : reply;
    });
  }

  // Last: what an unexpected condition looks like, whoever produced it.
  const errorsAs200 = on('errors-as-200');
  const stackTrace = on('stack-trace-in-500');
  const render = (error: unknown): Reply => {
    if (errorsAs200) return jsonReply(200, { error: 'Internal Server Error' });
    const stack = error instanceof Error && error.stack ? error.stack : String(error);
    const body = Buffer.from(stack);
    return {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length },
      body,
    };
  };
  if (errorsAs200 || stackTrace) {
    rewrites.push((reply) => {
      if (reply.status !== 500) return reply;
      // A 500 a stage decided (an injected fault): rendered the way this server renders what it caught.
      const detail = reply.body === undefined ? 'Internal Server Error' : detailOf(reply.body);
      return render(new Error(detail));
    });
  }

  if (rewrites.length === 0) return run;
  const catching = errorsAs200 || stackTrace;
  const count = rewrites.length;
  const apply = (reply: Reply, exchange: Exchange, from: number): Reply | Promise<Reply> => {
    let current = reply;
    for (let i = from; i < count; i++) {
      const out = (rewrites[i] as Rewrite)(current, exchange);
      if (out instanceof Promise) {
        const next = out.then((r) => apply(r, exchange, i + 1));
        return catching ? next.catch(render) : next;
      }
      current = out;
    }
    return current;
  };
  return (exchange) => {
    let out: Reply | Promise<Reply>;
    try {
      out = run(exchange);
    } catch (error) {
      if (!catching) throw error;
      out = render(error);
    }
    if (out instanceof Promise) {
      const settled = catching ? out.catch(render) : out;
      return settled.then((reply) => apply(reply, exchange, 0));
    }
    return apply(out, exchange, 0);
  };
}

function authenticate(authenticator: Authenticator, exchange: Exchange): Promise<AuthResult> {
  return authenticator.authenticate(authorizationValues(exchange.req.rawHeaders), ALL_SCHEMES, exchange.now);
}

/** The same reply with one header field set, replaced, or (value undefined) removed. */
function withHeader(reply: Reply, name: string, value: string | string[] | undefined): Reply {
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...reply, headers };
}

function withBody(reply: Reply, body: Buffer): Reply {
  return { ...reply, headers: { ...reply.headers, 'content-length': body.length }, body };
}

function noContent(reply: Reply): Reply {
  const headers: OutgoingHttpHeaders = { ...reply.headers };
  delete headers['content-type'];
  delete headers['content-length'];
  return { status: 204, headers, body: undefined };
}

/** Applies `change` to the WWW-Authenticate field lines of the reply, when it has any. */
function mapChallenges(reply: Reply, change: (values: string[]) => string[]): Reply {
  const field = reply.headers['www-authenticate'];
  if (field === undefined) return reply;
  const values = Array.isArray(field) ? field : [String(field)];
  return withHeader(reply, 'www-authenticate', change(values));
}

function detailOf(body: Buffer): string {
  try {
    const value = JSON.parse(body.toString('utf8')) as { detail?: unknown };
    return typeof value.detail === 'string' ? value.detail : 'Internal Server Error';
  } catch {
    return 'Internal Server Error';
  }
}
