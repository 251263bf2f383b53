/**
 * The DSSE JSON envelope (DSSE envelope v1.0.2) and the in-toto bundle file that holds one per line
 * (in-toto attestation spec v1, bundle.md: JSON Lines, suffix `.intoto.jsonl`).
 */
import { isRecord } from '../../shared/is-record.ts';

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
 * The envelopes of a bundle file. in-toto bundle.md: "Each line within a Bundle SHOULD be an Envelope.
 * Consumers MUST ignore unrecognized lines."
 */
export function envelopesOf(text: string): Envelope[] {
  const out: Envelope[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const envelope = asEnvelope(value);
    if (envelope) out.push(envelope);
  }
  return out;
}

/** One bundle line. */
export function envelopeLine(envelope: Envelope): string {
  return `${JSON.stringify(envelope)}\n`;
}
