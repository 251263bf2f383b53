/**
 * A signed statement of the report (cli/attest writes it after the report): what summary.md and the HTML page
 * say about it, so a reader can check it themselves. conformance.json cannot name its own statement — the
 * statement's subject is conformance.json's digest — so only these renderings, rewritten after signing, do.
 */

/** The statement's file beside the report: an in-toto bundle (JSON Lines of DSSE envelopes). */
export const STATEMENT_FILE = 'conformance.intoto.jsonl';

export interface StatementNote {
  /** The statement's file name, beside the report (conformance.intoto.jsonl). */
  readonly file: string;
  /** RFC 7638 SHA-256 thumbprint of the signing key's public key. */
  readonly keyId: string;
  readonly algorithm: string;
  /** SHA-256 (hex) of conformance.json, as the statement's subject names it. */
  readonly reportSha256: string;
}

/** The command a reader runs in the report directory, with the signer's public key. */
export function verifyCommand(note: StatementNote): string {
  return `npx gatecheck verify ${note.file} --key <signer's public key> --report conformance.json`;
}

/** One sentence on what the statement is and what it binds. */
export function statementSentence(note: StatementNote): string {
  return (
    `${note.file} is an in-toto statement of this report in a DSSE envelope, signed with key ${note.keyId} ` +
    `(${note.algorithm}); it attests conformance.json with SHA-256 ${note.reportSha256}.`
  );
}
