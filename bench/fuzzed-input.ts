/**
 * Bad input from the suite's own fuzz generators (specs/fuzz/): malformed and wrong Authorization values of
 * every scheme (raw CR/LF/NUL/obs-text octets and duplicate field lines included), mutated and forged JWTs,
 * and legal respellings of valid credentials — sent to the public, protected and admin paths with the same
 * clients the fuzz specs use (node:http, and a raw socket for octets node:http refuses).
 *
 * Used by the soak run (100,000 requests) and tests/reliability/bad-input.test.ts (2,000): the mock must
 * never crash, never answer 5xx (no fault is injected), and keep its memory flat.
 */

import fc from 'fast-check';
import { junkAuthorizationCase } from '../specs/fuzz/arbitraries/junkAuthorizationCase.ts';
import { validCredentialVariant } from '../specs/fuzz/arbitraries/validCredentialVariant.ts';
import { createNodeHttpClient } from '../specs/fuzz/clients/node-http.ts';
import { createRawSocketClient } from '../specs/fuzz/clients/raw-socket.ts';
import { transportFor } from '../specs/fuzz/clients/select.ts';
import type { Outcome } from '../specs/fuzz/clients/types.ts';
import { createJwtKit, isKitUnavailable } from '../specs/fuzz/jwt/kit.ts';
import { mutationCase } from '../specs/fuzz/jwt/mutation.ts';
import { anyMutation } from '../specs/fuzz/jwt/mutations/anyMutation.ts';
import type { EndpointRole, FuzzRequest } from '../specs/fuzz/request.ts';
import { PROFILE, USER } from './setups.ts';

const PATHS: Readonly<Record<EndpointRole, string>> = {
  public: '/users',
  protected: '/protected',
  admin: '/admin',
};

/** Every kind of generated Authorization input, each with the path it goes to. */
export function badInputArbitrary(): fc.Arbitrary<FuzzRequest & { endpoint: EndpointRole }> {
  const anywhere = fc.constantFrom<EndpointRole>('public', 'protected', 'admin');
  const junk = fc
    .tuple(junkAuthorizationCase(), anywhere)
    .map(([request, endpoint]) => ({ ...request, endpoint: request.endpoint ?? endpoint }));
  const variants = fc
    .constantFrom(`Bearer ${USER.bearer}`, `Apikey ${USER.apikey}`)
    .chain((canonical) => {
      const space = canonical.indexOf(' ');
      return validCredentialVariant({
        scheme: canonical.slice(0, space),
        credentials: canonical.slice(space + 1),
      });
    })
    .map((value): FuzzRequest & { endpoint: EndpointRole } => ({
      kind: 'validCredentialVariant',
      authorization: [value],
      endpoint: 'protected',
    }));
  const kit = createJwtKit(PROFILE);
  if (isKitUnavailable(kit))
    return fc.oneof({ weight: 6, arbitrary: junk }, { weight: 1, arbitrary: variants });
  const tokens = anyMutation(kit).map((m) => {
    const request = mutationCase(m);
    return { ...request, endpoint: request.endpoint ?? ('protected' as const) };
  });
  return fc.oneof(
    { weight: 6, arbitrary: junk },
    { weight: 2, arbitrary: tokens },
    { weight: 1, arbitrary: variants },
  );
}

export interface BadInputResult {
  readonly sent: number;
  readonly raw: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly serverErrors: number;
  /** No HTTP answer, by reason. */
  readonly dropped: Readonly<Record<string, number>>;
  readonly kinds: number;
  /** A few 5xx or dropped cases, for the report (credentials are test-only demo material). */
  readonly examples: readonly string[];
  readonly durationMs: number;
}

export interface BadInputOptions {
  readonly baseUrl: string;
  readonly count: number;
  readonly seed: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** Stop early (the run reports what it sent) once this much time has passed. */
  readonly maxDurationMs: number;
  /** Called every `progressEvery` requests. */
  readonly onProgress?: (sent: number) => void | Promise<void>;
  readonly progressEvery?: number;
}

/** Draws `count` cases (in batches, so memory stays small) and sends them, `concurrency` at a time. */
export async function sendBadInput(options: BadInputOptions): Promise<BadInputResult> {
  const arbitrary = badInputArbitrary();
  const http = createNodeHttpClient({ timeoutMs: options.timeoutMs, maxSockets: options.concurrency });
  const raw = createRawSocketClient({ timeoutMs: options.timeoutMs });
  const statuses: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  const kinds = new Set<string>();
  const examples: string[] = [];
  let sent = 0;
  let rawCount = 0;
  let serverErrors = 0;
  const started = Date.now();
  const batchSize = 500;
  let batch: (FuzzRequest & { endpoint: EndpointRole })[] = [];
  let batchIndex = 0;
  let drawn = 0;
  const next = (): (FuzzRequest & { endpoint: EndpointRole }) | undefined => {
    if (drawn >= options.count || Date.now() - started > options.maxDurationMs) return undefined;
    if (batch.length === 0) {
      batch = fc.sample(arbitrary, {
        seed: options.seed + batchIndex++,
        numRuns: Math.min(batchSize, options.count - drawn),
      });
    }
    drawn++;
    return batch.pop();
  };
  const record = (request: FuzzRequest, outcome: Outcome): void => {
    if (outcome.kind === 'response') {
      statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
      if (outcome.status >= 500) {
        serverErrors++;
        if (examples.length < 5)
          examples.push(
            `${outcome.status} for ${request.kind}: ${JSON.stringify(request.authorization).slice(0, 200)}`,
          );
      }
    } else {
      const reason = outcome.error.replace(/\d+/g, 'N');
      dropped[reason] = (dropped[reason] ?? 0) + 1;
      if (examples.length < 5)
        examples.push(
          `dropped (${outcome.error}) for ${request.kind}: ${JSON.stringify(request.authorization).slice(0, 200)}`,
        );
    }
  };
  const worker = async (): Promise<void> => {
    for (let request = next(); request !== undefined; request = next()) {
      kinds.add(request.kind.split(':')[0] ?? request.kind);
      const useRaw = transportFor(request) === 'raw';
      if (useRaw) rawCount++;
      const outcome = await (useRaw ? raw : http).send({
        method: 'GET',
        url: `${options.baseUrl}${PATHS[request.endpoint]}${request.query ? `?${request.query}` : ''}`,
        authorization: request.authorization,
      });
      record(request, outcome);
      sent++;
      if (options.onProgress && sent % (options.progressEvery ?? 10_000) === 0)
        await options.onProgress(sent);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    http.close();
  }
  return {
    sent,
    raw: rawCount,
    statuses,
    serverErrors,
    dropped,
    kinds: kinds.size,
    examples,
    durationMs: Date.now() - started,
  };
}
