/**
 * The CLI's exit codes: the contract CI gates on (docs/cli.md lists them; tests/cli proves each).
 * h2spec exits 1 on any failed requirement; gatecheck also tells usage and reachability apart, so a
 * pipeline can say "the target is down" instead of "the target is broken".
 */

export const EXIT = {
  /**
   * Every MUST rule passed (with --strict: every SHOULD rule too). With waivers or a baseline (a gate): the
   * gate passed — every failure waived or known, nothing worse — whatever the verdict says.
   */
  conformant: 0,
  /**
   * A rule failed, the run did not complete, or more MUST rules went unchecked than --max-skipped-must
   * allows: in each case conformance is not shown. For `gatecheck verify`: the statement does not hold
   * (its one line says which check failed); for --sign-key: the statement asked for could not be made.
   */
  nonConformant: 1,
  /** Bad flags or a bad profile; reported in one line before any request is sent. */
  usage: 2,
  /**
   * The target is not there: the preflight request got no HTTP answer (connection refused, DNS, TLS,
   * timeout), or every endpoint the profile declares answered 404 (a wrong base URL).
   */
  unreachable: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_TABLE: readonly (readonly [ExitCode, string])[] = [
  [
    EXIT.conformant,
    'conformant: every MUST rule passed (with --strict, every SHOULD rule too); with --waivers or --baseline: the gate passed (the verdict, printed too, may still be "not conformant")',
  ],
  [
    EXIT.nonConformant,
    'not conformant: a rule failed, the run did not complete, or more MUST rules went unchecked than --max-skipped-must allows; with a gate: a failure not waived or known, something worse than the baseline, an expired waiver',
  ],
  [EXIT.usage, 'bad usage or bad profile (one line names the flag or field), before any request'],
  [
    EXIT.unreachable,
    'target unreachable or not found: no HTTP answer to the preflight, or 404 from every declared endpoint',
  ],
];

/** A mistake of the caller: printed as one line, exit 2. */
export class UsageError extends Error {
  readonly code = 'ERR_GATECHECK_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
