/**
 * The 5xx answers a profile declares, or a text allows, for observed.no-5xx (specs/rules/observed-server-error.ts):
 * read once from the profile, asked once per 5xx the run receives. Pure; knows nothing of the judges.
 */
import { pathOf, supportedMethods } from '../profile/methods.ts';
import { ratePolicyOf } from '../profile/rate-policy.ts';
import type { Profile } from '../profile/types.ts';

/** What a judge of 5xx answers needs of a request. */
export interface ServerErrorRequest {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  readonly status: number;
  /** The request's header lines when known (a check's exchange); undefined for a fuzz case. */
  readonly headerLines?: readonly (readonly [string, string])[];
}

/** Why a 5xx is allowed (for the record), or undefined when it is a fault. */
export type Declared5xx = (request: ServerErrorRequest) => string | undefined;

export function declared5xx(profile: Profile): Declared5xx {
  const fault = profile.fault;
  const faultMethod = (fault?.method ?? 'GET').toUpperCase();
  const faultHeaders = Object.entries(fault?.headers ?? {}).map(([n, v]) => [n.toLowerCase(), v] as const);
  const limiter503 = ratePolicyOf(profile).limiterStatus === 503;
  const implemented = new Set<string>();
  for (const { methods } of supportedMethods(profile).values()) for (const m of methods) implemented.add(m);
  // RFC 9110 §9.3.2: a server that implements GET answers HEAD alike.
  if (implemented.has('GET')) implemented.add('HEAD');
  return (request) => {
    // The declared trigger: path and method, and every header it names (a fuzz case carries none of them).
    if (
      fault !== undefined &&
      request.method.toUpperCase() === faultMethod &&
      // The request's path, or its tail behind the base URL's own path (https://host/api + /protected).
      request.path.endsWith(pathOf(fault.path)) &&
      faultHeaders.every(([name, value]) =>
        (request.headerLines ?? []).some(([n, v]) => n.toLowerCase() === name && v === value),
      )
    )
      return "the profile's fault trigger";
    if (request.status === 503 && limiter503) return 'a limiter the profile declares with status 503';
    // RFC 9110 §9.1: 501 for a request method that is unrecognized or not implemented; method names are
    // case-sensitive, so "get" is not GET.
    if (request.status === 501 && !implemented.has(request.method))
      return `501 to ${request.method}, a method the profile declares for no path`;
    return undefined;
  };
}
