import { type JsonItemBody, withMembers } from './jsonItemBody.ts';

/**
 * JSON items grown to the target's own limit (issue #37: "structure to the target's limits, never a fixed
 * number"): the sample item with one member more that holds the deepest nesting, the longest array, the longest
 * string, or the sample item with the most members that fit in `limitBytes` — the profile's
 * `collection.maxBodyBytes`, else DEFAULT_STRUCTURE_BYTES. RFC 8259 §9 lets a parser limit depth and sizes: a
 * limit is a 4xx; a parser or validator that fails further down, still within the body size the target takes,
 * answers 500. Examples, not an arbitrary: each is the largest of its kind, so there is nothing to shrink to.
 *
 *   nested arrays   "gatecheckNested": [[[ … ]]]            2 bytes a level
 *   nested objects  "gatecheckNested": {"a":{"a": … {}}}    6 bytes a level
 *   long array      "gatecheckArray": [0,0, … 0]            2 bytes an element
 *   long string     "gatecheckText": "xxx…"                 1 byte a character
 *   many members    "g0":0,"g1":0, …                        ≈ 8 bytes a member
 */

type Sample = Readonly<Record<string, unknown>>;

/** Used when the profile declares no body limit: well under common defaults (100 KiB in express.json, 1 MiB in nginx). */
export const DEFAULT_STRUCTURE_BYTES = 64 * 1024;

/** Bytes left for the added member's value once the sample item and its name are written. */
function room(sample: Sample, name: string, limitBytes: number): number {
  return limitBytes - Buffer.byteLength(withMembers(sample, `"${name}":`), 'utf8');
}

function body(kind: string, sample: Sample, members: string): JsonItemBody {
  const text = withMembers(sample, members);
  return { kind, text };
}

/** The largest body of each structural kind that fits in `limitBytes`. */
export function structuresToLimit(sample: Sample, limitBytes = DEFAULT_STRUCTURE_BYTES): JsonItemBody[] {
  const out: JsonItemBody[] = [];
  const arrays = Math.floor(room(sample, 'gatecheckNested', limitBytes) / 2);
  if (arrays > 0)
    out.push(
      body(
        `nested arrays to the limit (${arrays} deep)`,
        sample,
        `"gatecheckNested":${'['.repeat(arrays)}${']'.repeat(arrays)}`,
      ),
    );
  const objects = Math.floor((room(sample, 'gatecheckNested', limitBytes) - 2) / 6);
  if (objects > 0)
    out.push(
      body(
        `nested objects to the limit (${objects} deep)`,
        sample,
        `"gatecheckNested":${'{"a":'.repeat(objects)}{}${'}'.repeat(objects)}`,
      ),
    );
  const elements = Math.floor((room(sample, 'gatecheckArray', limitBytes) - 1) / 2);
  if (elements > 0)
    out.push(
      body(
        `long array to the limit (${elements} elements)`,
        sample,
        `"gatecheckArray":[${Array(elements).fill('0').join(',')}]`,
      ),
    );
  const characters = room(sample, 'gatecheckText', limitBytes) - 2;
  if (characters > 0)
    out.push(
      body(
        `long string to the limit (${characters} characters)`,
        sample,
        `"gatecheckText":"${'x'.repeat(characters)}"`,
      ),
    );
  const members: string[] = [];
  let size = Buffer.byteLength(withMembers(sample, ''), 'utf8');
  for (let i = 0; ; i++) {
    const member = `"g${i}":0`;
    if (size + member.length + 1 > limitBytes) break;
    members.push(member);
    size += member.length + 1;
  }
  if (members.length > 0)
    out.push(body(`many members to the limit (${members.length} members)`, sample, members.join(',')));
  return out.filter((b) => Buffer.byteLength(b.text, 'utf8') <= limitBytes);
}
