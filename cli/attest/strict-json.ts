/**
 * JSON read strictly, for what is signed: RFC 8259 §4 says member names "SHOULD be unique" and that with
 * duplicates "the behavior of software that receives such an object is unpredictable" — JSON.parse keeps the
 * last, other parsers the first, so a payload with two `verdict` members says one thing to gatecheck and
 * another to the next tool. A duplicate anywhere refuses the document. Momoa (an ECMA-404 parser that keeps
 * every member, ESLint's JSON parser) finds them; the values then come from JSON.parse.
 */
import { type DocumentNode, parse, type ValueNode } from '@humanwhocodes/momoa';

export type StrictJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly cause: string };

/** RFC 6901 JSON Pointer escaping of one reference token. */
function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The first duplicate member, as a JSON Pointer to its object and its name, or undefined. */
function firstDuplicate(document: DocumentNode): { at: string; name: string } | undefined {
  const stack: { node: ValueNode; at: string }[] = [{ node: document.body, at: '' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, at } = item;
    if (node.type === 'Array') {
      node.elements.forEach((element, i) => void stack.push({ node: element.value, at: `${at}/${i}` }));
    } else if (node.type === 'Object') {
      const seen = new Set<string>();
      for (const member of node.members) {
        const name = String(member.name.type === 'String' ? member.name.value : member.name.name);
        if (seen.has(name)) return { at: at === '' ? '/' : at, name };
        seen.add(name);
        stack.push({ node: member.value, at: `${at}/${pointerToken(name)}` });
      }
    }
  }
  return undefined;
}

export function parseStrictJson(text: string): StrictJson {
  let document: DocumentNode;
  try {
    document = parse(text, { mode: 'json' });
  } catch {
    // Momoa's messages quote the text; the caller names the document instead.
    return { ok: false, cause: 'is not JSON' };
  }
  const duplicate = firstDuplicate(document);
  if (duplicate)
    return {
      ok: false,
      cause: `has a duplicate member ${JSON.stringify(duplicate.name)} in the object at ${duplicate.at} (RFC 8259 §4: which one counts is unpredictable)`,
    };
  return { ok: true, value: JSON.parse(text) };
}
