import fc from 'fast-check';
import { b64url } from '../compact.ts';
import type { JwtKit } from '../kit.ts';
import type { JwtMutation } from '../mutation.ts';

/** JSON texts that are not objects, and one that is not JSON. */
const NOT_OBJECTS = ['[]', '"JWT"', '1', 'null', 'true', '{"alg":', '[{"alg":"none"}]'];

/**
 * Tokens broken in their structure: a fourth or fifth segment, the header segment removed, a character
 * outside base64url (or "=" padding) in the header or payload segment, a header or claims set that is JSON
 * but not an object (re-signed with the target's key when the profile has it, so only the structure is
 * wrong), or not JSON at all.
 *
 * RFC 7515 §7.1 and §5.2 steps 1–3 (three base64url segments, "no line breaks, whitespace, or other
 * additional characters"; the header "MUST" be a completely valid JSON object), RFC 7519 §7.2 step 10 (the
 * claims set must be a JSON object).
 */
/** A structure attack's token, named by what is wrong with it. */
function m(variant: string, token: string): JwtMutation {
  return { attack: 'structure', variant, token, escalated: false };
}

export function malformedStructureMutation(kit: JwtKit): fc.Arbitrary<JwtMutation> {
  const [h, p, s] = kit.segments;
  const extra = fc.uint8Array({ minLength: 0, maxLength: 16 }).map(b64url);
  return fc.oneof(
    extra.map((x) => m('a fourth segment', `${h}.${p}.${s}.${x}`)),
    extra.map((x) => m('five segments (JWE shape)', `${h}.${p}.${s}.${x}.${x}`)),
    fc.constant(m('header segment removed', `${p}.${s}`)),
    fc
      .record({
        segment: fc.constantFrom('header', 'payload'),
        at: fc.nat(),
        c: fc.constantFrom(...STRAY),
      })
      .map(({ segment, at, c }) => {
        const text = segment === 'header' ? h : p;
        const i = at % (text.length + 1);
        const broken = `${text.slice(0, i)}${c}${text.slice(i)}`;
        return m(
          `${JSON.stringify(c)} inserted in the ${segment} segment at ${i}`,
          segment === 'header' ? `${broken}.${p}.${s}` : `${h}.${broken}.${s}`,
        );
      }),
    fc
      .record({ segment: fc.constantFrom(...SEGMENTS), json: fc.constantFrom(...NOT_OBJECTS) })
      .map(({ segment, json }) => notObject(kit, segment, json)),
  );
}

const SEGMENTS = ['header', 'claims'] as const;

/** A header or claims set that is JSON but no object (re-signed when the profile has the key), or not JSON. */
function notObject(kit: JwtKit, segment: (typeof SEGMENTS)[number], json: string): JwtMutation {
  const [h, p, s] = kit.segments;
  const enc = b64url(json);
  const input = segment === 'header' ? `${enc}.${p}` : `${h}.${enc}`;
  // With the target's key, claims that are not an object are signed properly: only the structure is wrong.
  const resign = kit.signInput !== undefined && segment === 'claims';
  const signature = resign && kit.signInput ? kit.signInput(input) : s;
  return {
    attack: 'structure',
    variant: `${segment} segment is ${JSON.stringify(json)}${resign ? ', re-signed' : ''}`,
    token: `${input}.${signature}`,
    escalated: false,
  };
}

/** The characters outside base64url the samples insert (RFC 7515 §2: base64url without padding). */
const STRAY = ['+', '/', '=', '==', '%3D', '!', '.', '~'] as const;

/**
 * The finite part of malformedStructureMutation, sent whole (issue #68): the header segment removed, each JSON
 * text that is no object (or no JSON) as the header and as the claims set, a fourth and a fifth segment (one
 * representative each), and each stray character once in the middle of the header and of the claims set — 33
 * tokens. Where the extra segment's bytes and the stray character's place vary, the samples draw the rest.
 */
export function malformedStructureWhole(kit: JwtKit): readonly JwtMutation[] {
  const [h, p, s] = kit.segments;
  const inserted = (segment: 'header' | 'payload', c: string): JwtMutation => {
    const text = segment === 'header' ? h : p;
    const i = Math.floor(text.length / 2);
    const broken = `${text.slice(0, i)}${c}${text.slice(i)}`;
    return m(
      `${JSON.stringify(c)} inserted in the ${segment} segment at ${i}`,
      segment === 'header' ? `${broken}.${p}.${s}` : `${h}.${broken}.${s}`,
    );
  };
  return [
    m('header segment removed', `${p}.${s}`),
    m('a fourth segment', `${h}.${p}.${s}.AAAA`),
    m('five segments (JWE shape)', `${h}.${p}.${s}.AAAA.AAAA`),
    ...SEGMENTS.flatMap((segment) => NOT_OBJECTS.map((json) => notObject(kit, segment, json))),
    ...(['header', 'payload'] as const).flatMap((segment) => STRAY.map((c) => inserted(segment, c))),
  ];
}
