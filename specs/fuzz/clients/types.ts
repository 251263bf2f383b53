/**
 * The contract between the fuzz engine and the clients that put a case on the wire. Three clients exist
 * (docs/fuzzing.md "Clients"): node:http for the bulk, a raw socket for control octets it refuses, and,
 * when asked for (GATECHECK_FUZZ_CLIENT=playwright), Playwright's APIRequestContext so requests show in traces.
 */

export interface WireRequest {
  readonly method: string;
  /** Absolute URL, query included. */
  readonly url: string;
  /** Authorization field lines, byte strings (one char per octet); `[]` sends none. */
  readonly authorization: readonly string[];
}

export type Outcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** Lower-case names; repeated fields joined with ', ' (RFC 9110 §5.3). */
      readonly headers: Readonly<Record<string, string>>;
      /** The first 2 KiB of the body. */
      readonly body: string;
    }
  | {
      /** No HTTP response: refused, reset, closed before a status line, not HTTP, or timed out. */
      readonly kind: 'dropped';
      readonly error: string;
      /** No answer within `timeoutMs`: a clock, not an answer — no verdict (docs/design.md "A polite client"). */
      readonly timedOut?: true;
    };

export interface Client {
  /** `node:http`, `raw socket` or `playwright`: shown in reports next to each counterexample. */
  readonly name: string;
  /** Whether this client puts exactly these octets on the wire (no refusal, trimming or merging). */
  canSend(request: WireRequest): boolean;
  send(request: WireRequest): Promise<Outcome>;
}

export const BODY_LIMIT = 2048;
