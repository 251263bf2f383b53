/**
 * The DSSE JSON envelope (DSSE envelope v1.0.2) and the in-toto bundle file that holds one per line
 * (in-toto attestation spec v1, bundle.md: JSON Lines, suffix `.intoto.jsonl`).
 */
import { isRecord } from '../../shared/is-record.ts';

import { LIMITS } from './limits.ts';
import { parseStrictJson } from './strict-json.ts';

/** in-toto envelope.md: "payloadType MUST be set to … application/vnd.in-toto+json". */
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface EnvelopeSignature {
  /** Unauthenticated hint (DSSE protocol: "MUST NOT be used for security decisions"). */
  readonly keyid?: string;
  /** Base64 of the signature bytes. */
  readonly sig: string;
}

export interface Envelope {
  /** Base64 of the serialized statement. */
  readonly payload: string;
  readonly payloadType: string;
  readonly signatures: readonly EnvelopeSignature[];
}

/**
 * DSSE envelope "Parsing rules": payload, payloadType, signatures and each signature's sig are required;
 * keyid is optional; unrecognized fields are ignored. Undefined when `value` is not an envelope.
 */
export function asEnvelope(value: unknown): Envelope | undefined {
  if (!isRecord(value)) return undefined;
  const { payload, payloadType, signatures } = value;
  if (typeof payload !== 'string' || typeof payloadType !== 'string' || !Array.isArray(signatures))
    return undefined;
  const parsed: EnvelopeSignature[] = [];
  for (const s of signatures) {
    if (!isRecord(s) || typeof s.sig !== 'string') return undefined;
    parsed.push(
      typeof s.keyid === 'string' && s.keyid !== '' ? { keyid: s.keyid, sig: s.sig } : { sig: s.sig },
    );
  }
  return { payload, payloadType, signatures: parsed };
}

/**
 * The one envelope of a bundle file, and the line it is on; a cause otherwise. in-toto bundle.md: "Each line
 * within a Bundle SHOULD be an Envelope. Consumers MUST ignore unrecognized lines" — a line that is not JSON,
 * or JSON that is not an envelope, is ignored. A second envelope is refused: gatecheck writes one, and two
 * would be two claims, either of which a verifier might show (limits.ts). JSON.parse finds them (fast, and the
 * file is bounded); the caller checks the limits, then reads the envelope's line strictly (strict-json.ts)
 * before any signature is tried.
 */
export function envelopeOf(
  text: string,
):
  | { readonly envelope: Envelope; readonly line: string; readonly number: number }
  | { readonly cause: string } {
  const found: { envelope: Envelope; line: string; number: number }[] = [];
  let number = 0;
  for (const line of text.split('\n')) {
    number++;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const envelope = asEnvelope(value);
    if (envelope) found.push({ envelope, line, number });
  }
  if (found.length === 0) return { cause: 'statement: the file holds no DSSE envelope' };
  if (found.length > LIMITS.envelopes)
    return {
      cause: `statement: the file holds ${found.length} DSSE envelopes; gatecheck writes one and reads at most ${LIMITS.envelopes}`,
    };
  return found[0] as { envelope: Envelope; line: string; number: number };
}

/** The envelope's line read strictly: a duplicate member anywhere in it is a cause (strict-json.ts). */
export function envelopeLineError(line: string, number: number): string | undefined {
  const parsed = parseStrictJson(line);
  return parsed.ok ? undefined : `statement: line ${number} ${parsed.cause}`;
}

/** One bundle line. */
export function envelopeLine(envelope: Envelope): string {
  return `${JSON.stringify(envelope)}\n`;
}
