/**
 * Whether a document says its API limits requests: a response that declares rate-limit header fields
 * (`X-RateLimit-Limit`, `RateLimit`, `RateLimit-Policy`, `Retry-After` — draft-ietf-httpapi-ratelimit-headers,
 * RFC 9110 §10.2.3) or a 429 (RFC 6585 §4). Where it says nothing and states no `x-gatecheck-rate-limit`, the
 * stand-in limits nothing unless `--rate-limit` (or the configuration) asks for a limit: a limit the API does
 * not have would answer 429s the API never answers.
 */
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

const LIMIT_HEADER = /^(x-)?rate-?limit|^retry-after$/i;

export function declaresRateLimit(doc: Json): boolean {
  for (const item of Object.values(isRecord(doc.paths) ? doc.paths : {}))
    for (const op of Object.values(isRecord(item) ? item : {}))
      for (const [status, response] of Object.entries(
        isRecord(op) && isRecord(op.responses) ? op.responses : {},
      )) {
        if (status === '429') return true;
        const headers = isRecord(response) && isRecord(response.headers) ? Object.keys(response.headers) : [];
        if (headers.some((h) => LIMIT_HEADER.test(h))) return true;
      }
  return false;
}
