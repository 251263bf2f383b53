/**
 * What an operation's words say about who may call it, beside what its `security` states (issue #69): read at
 * the operation (summary, description), its tags (the Tag Object's description, OpenAPI 3.1 §4.8.22) and its
 * Path Item (summary, description, §4.8.8). Two things are read, each as the sentence that says it, so that a
 * to-do line can quote it:
 * - the operation is not authenticated (the words override `security`: the operation is no protected read,
 *   and may be the public one);
 * - the operation needs a role, a permission, an owner's or an operator's token (an administrator's read).
 * Every phrasing below cites the document that taught it; a phrasing not listed is not read — the to-do lines
 * that depend on it say what init found instead, never a silent default.
 */
import { isObject } from './document-extensions.ts';

type Json = Record<string, unknown>;

export interface Quote {
  /** The sentence, whitespace collapsed, at most 200 characters. */
  readonly sentence: string;
  /** Where it was read: `its description`, `its tag "Organisation"`, `its path's description`. */
  readonly where: string;
}

export interface Said {
  /** The words say the operation is not authenticated. */
  readonly open: Quote | undefined;
  /** The words say it needs a role, a permission, an owner's or operator's token. */
  readonly privileged: Quote | undefined;
}

/** "This endpoint is not authenticated …" — JupyterHub's `GET /` (its REST API document, "Get JupyterHub version"). */
const OPEN: readonly RegExp[] = [
  /\b(?:this|the) (?:endpoint|operation|route|request|call|resource) (?:is not|isn't) authenticated\b/i,
  // Plaid's `/categories/get`: "This endpoint does not require authentication."
  /\b(?:this|the) (?:endpoint|operation|route|request|call|resource) (?:does not|doesn't) require (?:any )?authentication\b/i,
];

/** Words that make the sentence a condition or an error, not a statement about the operation. */
const CONDITION = /\b(if|when|unless|otherwise|error|fails?|401|403)\b/i;

const PRIVILEGED: readonly RegExp[] = [
  // A tag's description in one of issue #69's documents: `You need to have the "owner" role to access these endpoints`.
  /\b(?:need|needs|must|required?|requires)\s+(?:to\s+)?(?:have\s+|be\s+)?(?:the\s+|an?\s+)?["“'`]?[\w -]{1,30}?["”'`]?\s+role\b/i,
  // Adyen's Management API: "To make this request, your API credential must have the following roles:".
  /\bmust have (?:one of )?the following (?:roles?|permissions?)\b/i,
  // A summary in one of issue #69's documents: "List all users | Operator token".
  /\b(?:operator|owner|admin(?:istrator)?)(?:'s)? (?:token|key|credentials?)\b/i,
  // "requires the `org:admin` permission", "needs the manage permission": a permission named as needed.
  /\b(?:requires?|needs?)\s+(?:the\s+)?["“'`]?[\w:.-]{1,40}["”'`]?\s+permissions?\b/i,
];

function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?|])\s+|\s+\|\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The whole sentence around a phrasing's match, for the to-do line. */
function quoteOf(text: string, where: string, patterns: readonly RegExp[], skip?: RegExp): Quote | undefined {
  const sentences = sentencesOf(text);
  for (const pattern of patterns)
    for (const [i, s] of sentences.entries()) {
      if (!pattern.test(s) || skip?.test(s.replace(pattern, ''))) continue;
      // A summary written as "List all users | Operator token": quote both halves.
      const whole = /^(?:operator|owner|admin)/i.test(s) && i > 0 ? `${sentences[i - 1]} | ${s}` : s;
      return { sentence: whole.length > 200 ? `${whole.slice(0, 199)}…` : whole, where };
    }
  return undefined;
}

/** The texts an operation's words are read in, each with where it was read. */
function textsOf(doc: Json, item: Json, op: Json): { text: string; where: string }[] {
  const out: { text: string; where: string }[] = [];
  const add = (value: unknown, where: string) => {
    if (typeof value === 'string' && value.trim() !== '') out.push({ text: value, where });
  };
  add(op.summary, 'its summary');
  add(op.description, 'its description');
  const declared = Array.isArray(doc.tags) ? doc.tags.filter(isObject) : [];
  for (const name of Array.isArray(op.tags) ? op.tags.map(String) : [])
    add(declared.find((t) => t.name === name)?.description, `its tag "${name}"`);
  add(item.summary, "its path's summary");
  add(item.description, "its path's description");
  return out;
}

export function saidOf(doc: Json, item: Json, op: Json): Said {
  let open: Quote | undefined;
  let privileged: Quote | undefined;
  for (const { text, where } of textsOf(doc, item, op)) {
    open ??= quoteOf(text, where, OPEN, CONDITION);
    privileged ??= quoteOf(text, where, PRIVILEGED);
  }
  return { open, privileged };
}
