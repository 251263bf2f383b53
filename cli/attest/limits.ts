/**
 * What `gatecheck verify` reads at most, checked before any signature is tried: an attacker's statement
 * costs its verifier no more than these allow (issue #42: 2,000 bogus signatures over a 4 MiB payload cost
 * 15 s of CPU; an 85 MB payload 493 MB of memory). Each bound is far above what gatecheck writes — the
 * reasons are in docs/cli.md "gatecheck verify".
 */

const MiB = 1024 * 1024;

export const LIMITS = {
  /**
   * The statement file (conformance.intoto.jsonl). gatecheck writes one envelope of a few tens of KiB (the
   * predicate restates the verdict of each rule and embeds the redacted profile); 4 MiB leaves room for a
   * catalogue ten times larger and a large profile, and is read whole before anything is parsed.
   */
  statementBytes: 4 * MiB,
  /** The decoded payload: the statement JSON, which every signature check hashes once (PAE). */
  payloadBytes: 2 * MiB,
  /**
   * Signatures per envelope: every one may be tried, each hashing the whole payload. gatecheck writes one;
   * DSSE allows several signers (a co-signature), and 8 leaves room for those.
   */
  signatures: 8,
  /** Envelopes per bundle file: gatecheck writes one; a second would be a second, possibly other, claim. */
  envelopes: 1,
  /**
   * conformance.json: hashed before it is parsed, then parsed twice (duplicate members, then values) and
   * checked against its schema, which costs about six times its size in memory. A report holds each rule's
   * tests and evidence (2 KiB of body each at most); 8 MiB is seventy times the sample report, and keeps a
   * report at the limit under 200 MB and 1 s (bench/verify-limits.ts).
   */
  reportBytes: 8 * MiB,
} as const;

export function mebibytes(bytes: number): string {
  return `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 1)} MiB`;
}
