/**
 * Evidence for one verdict (h2spec: expected and actual together). Attached to the test as
 * `evidence.json`; the reporter copies it into conformance.json and the HTML page.
 * Every credential in it is already redacted (specs/lib/redact.ts) before it is attached.
 */
export interface Evidence {
  readonly rule: string;
  /** What the rule allows, e.g. 'status 400 or 401'. */
  readonly expected: string;
  /** What came back, e.g. 'status 200'. */
  readonly actual: string;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    /** First 2 KiB of the body. */
    readonly body: string;
  };
  /** A curl line (or, for byte-level cases, the raw request) that replays it, credentials redacted. */
  readonly replay: string;
}

export const EVIDENCE_ATTACHMENT = 'evidence.json';
