/**
 * The form a key takes in the Authorization header, read from the document's own words (RFC 9110 §11.4:
 * credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]) and written as the profile's `apikeyScheme`
 * (docs/profile.md): a word (`Token`, `SSWS`), a word and a parameter whose value is the quoted key
 * (`MediaBrowser Token` → `MediaBrowser Token="<key>"`) or the bare key (`Token token=` → `Token token=<key>`,
 * an auth-param value that is a token, RFC 9110 §5.6.2).
 *
 * Where a document says it, in the order read: the `x-gatecheck-apikey-scheme` extension (security.ts), any
 * other `x-` field of the Security Scheme Object holding a header value or a prefix, the scheme's description,
 * and an example of an `Authorization` header parameter of an operation. A description says it as
 * - a header example: "Authorization: SSWS {API Token}", "`Token <your key>`";
 * - a format: "format Token token=<API_KEY>", "in the form `Token <key>`";
 * - a prefix: "prefixed with SSWS", "must be prepended with \"token\" followed by a space",
 *   "preceded by the word Token", "required prefix \"Token\"", "with the `Bearer` prefix";
 * - a header value on a line of its own, indented as code, in a text about the Authorization header;
 * - the key alone: "`Authorization: YOUR_API_KEY`" — no word before it (`apikeyScheme: ""`);
 * never the key's own first characters ("prefixed with `sk-`") nor whatever follows "prefix" ("the key
 * prefix is shown once"). A word not stated is undefined, and the sentence read is kept for the to-do line.
 */
import { isRecord } from '../../shared/is-record.ts';

type Json = Record<string, unknown>;

/** RFC 9110 §5.6.2 token: an auth-scheme or auth-param name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A word as documents write an auth-scheme: letters first, no trailing `-` (that would be a key's start). */
const WORD = '[A-Za-z](?:[\\w.-]*[A-Za-z0-9])?';
/** What stands for the key in an example: `<key>`, `{API Token}`, `[token]`, `$API_KEY`, `YOUR_API_KEY`, `…`. */
const PLACEHOLDER =
  '(?:<[^>]{1,40}>|\\{[^}]{1,40}\\}|\\[[^\\]]{1,40}\\]|\\$\\{?[A-Za-z_]+\\}?|[A-Z][A-Z0-9_]*_[A-Z0-9_]+|\\.\\.\\.|…)';
/** Words before a placeholder that are not a scheme word ("your <key>"). */
const ARTICLE = /^(the|a|an|your|its|their|this|that|with|by|and|or|is|as|of|to|in)$/i;
/** Words an unquoted phrase puts after "prefixed with" that are not a scheme word; quoted, any word is one. */
const NOT_A_WORD =
  /^(the|a|an|your|its|their|this|that|with|by|and|or|key|api|apikey|token|value|string|header|prefix|authorization|word|keyword|followed|space|it|is|be|must|should|as)$/i;

/** The form of a key sent alone, the whole field value (docs/profile.md `apikeyScheme: ""`). */
export const KEY_ALONE = '';

export interface KeyForm {
  /** The profile's `apikeyScheme`: `Token`, `MediaBrowser Token`, `Token token=`, or '' for the key alone. */
  readonly form: string;
  /** Where it was read, for the to-do line. */
  readonly from: string;
}

/**
 * A header value as written in an example (`SSWS {API Token}`, `MediaBrowser Token="<key>"`,
 * `Token token=<API_KEY>`, `Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b`) → its form; undefined when it
 * is not `<word> <key>` or `<word> <param>=<key>` (a key alone, a sentence).
 */
export function formOfHeaderValue(value: string, concrete = false): string | undefined {
  const v = value.trim().replace(/^Authorization:\s*/i, '');
  const param = new RegExp(
    `^(${WORD})\\s+(${WORD})=(["']?)(${PLACEHOLDER}|[\\w.~+/-]{6,}=*)\\3(?:$|[\\s\`"',;.)])`,
  ).exec(v);
  if (param !== null) return accepted(`${param[1]} ${param[2]}${param[3] ? '' : '='}`);
  const key = concrete ? `(?:${PLACEHOLDER}|[\\w.~+/-]{8,}=*)` : PLACEHOLDER;
  const word = new RegExp(`^(${WORD})\\s+["']?${key}["']?(?:$|[\\s\`"',;.)])`).exec(v);
  if (word !== null && !ARTICLE.test(word[1] ?? '')) return accepted(word[1] ?? '');
  return undefined;
}

/** A form the profile can write (each part an RFC 9110 token), else undefined. */
function accepted(form: string): string | undefined {
  const [word, param] = form.split(' ');
  if (word === undefined || !TOKEN.test(word)) return undefined;
  if (param !== undefined && !TOKEN.test(param.replace(/=$/, ''))) return undefined;
  return form;
}

/** A description's words → the form, or undefined (see the module comment for the phrasings). */
export function formFromText(text: string): string | undefined {
  // "Authorization: SSWS {API Token}", "Authorization: Token token=<key>".
  const header = /Authorization:\s*([^\n`"]*(?:"[^"\n]*"[^\n`]*)?)/i.exec(text);
  if (header?.[1] !== undefined) {
    const form = formOfHeaderValue(header[1], true);
    if (form !== undefined) return form;
    // "the following header in the API requests: `Authorization: YOUR_API_KEY`" (issue #69, a published
    // document's sentence): a placeholder alone after the header's name — the key with no word before it.
    if (new RegExp(`^${PLACEHOLDER}\\s*[.,;]?$`).test(header[1].trim())) return KEY_ALONE;
  }
  // "format Token token=<API_KEY>", "in the form `Token <key>`", "of the format: Token <key>".
  for (const m of text.matchAll(
    /\b(?:format|form|formatted as|looks like|like this|e\.g\.|example)[:\s]+(?:of\s+|as\s+)?[`"']?([^`\n]+)/gi,
  )) {
    const form = formOfHeaderValue(m[1] ?? '');
    if (form !== undefined) return form;
  }
  // "with the `Bearer` prefix" (Gotify), "using the Token prefix".
  const withPrefix = new RegExp(
    `\\b(?:with|using|use)\\s+(?:the|a)\\s+([\`"'])(${WORD})\\1\\s+prefix\\b`,
    'i',
  ).exec(text);
  if (withPrefix?.[2] !== undefined) return accepted(withPrefix[2]);
  // A header value shown on a line of its own, indented as code, in a text about the Authorization header
  // (RealWorld: "The following format must be in the 'Authorization' header :\n\n    Token xxxxxx.yyyyyyy.zzzzzz").
  if (/authori[sz]ation/i.test(text))
    for (const m of text.matchAll(/^(?: {4,}|\t)(\S[^\n]*)$/gm)) {
      const form = formOfHeaderValue(m[1] ?? '', true);
      if (form !== undefined) return form;
    }
  // "prefixed with SSWS", "prepended with \"token\" followed by a space", "preceded by the word Token".
  const prefixed = new RegExp(
    `\\b(?:prefix(?:ed)?|prepended|preceded|starts?(?:ing)?)\\s+(?:with|by)\\s+(?:the\\s+)?((?:word|string|keyword|scheme|text|literal)\\s+)?([\`"']?)(${WORD})(?![\\w-])\\2`,
    'i',
  ).exec(text);
  // Quoted, or named "the word …", any word is one; bare, not a word that only continues the sentence.
  const [, saysWord, quote, prefix] = prefixed ?? [];
  if (prefix !== undefined && (quote !== '' || saysWord !== undefined || !NOT_A_WORD.test(prefix)))
    return accepted(prefix);
  // "required prefix \"Token\"", "the prefix `Token`", "prefix: Token" — quoted or after a colon only.
  const named = new RegExp(
    `\\bprefix(?:\\s+(?:is|of))?(?::\\s*|\\s+)([\`"'])(${WORD})\\s*\\1|\\bprefix:\\s*(${WORD})\\b`,
    'i',
  ).exec(text);
  const word = named?.[2] ?? named?.[3];
  if (named?.[2] !== undefined || (word !== undefined && !NOT_A_WORD.test(word))) return accepted(word ?? '');
  // "`Token <your token>`" anywhere: a quoted header value with a placeholder.
  for (const m of text.matchAll(/[`"']([^`"'\n]{3,80})[`"']/g)) {
    const form = formOfHeaderValue(m[1] ?? '');
    if (form !== undefined) return form;
  }
  // Kubernetes: "Bearer Token authentication".
  if (/^\s*bearer\b/i.test(text)) return 'Bearer';
  return undefined;
}

/** The values an operation's `Authorization` header parameter gives as examples. */
function headerExamples(doc: Json): string[] {
  const out: string[] = [];
  const paths = isRecord(doc.paths) ? doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue;
    const lists = [
      item.parameters,
      ...Object.values(item).map((op) => (isRecord(op) ? op.parameters : undefined)),
    ];
    for (const list of lists)
      for (const p of Array.isArray(list) ? list.filter(isRecord) : [])
        if (p.in === 'header' && String(p.name).toLowerCase() === 'authorization') {
          const schema = isRecord(p.schema) ? p.schema : {};
          const examples = isRecord(p.examples)
            ? Object.values(p.examples).map((e) => (isRecord(e) ? e.value : e))
            : [];
          for (const v of [p.example, ...examples, schema.example, schema.default, p.description])
            if (typeof v === 'string') out.push(v);
        }
  }
  return out;
}

/** The key's form as the Security Scheme Object `raw` (an apiKey in Authorization) and `doc` state it. */
export function keyFormOf(raw: Json, doc: Json = {}): KeyForm | undefined {
  for (const [k, v] of Object.entries(raw))
    if (k.startsWith('x-') && k !== 'x-gatecheck-apikey-scheme' && typeof v === 'string') {
      const form =
        /prefix|scheme/i.test(k) && TOKEN.test(v.trim()) ? accepted(v.trim()) : formOfHeaderValue(v, true);
      if (form !== undefined) return { form, from: `its ${k}` };
    }
  if (typeof raw.description === 'string') {
    const form = formFromText(raw.description);
    if (form !== undefined) return { form, from: 'its description' };
  }
  for (const v of headerExamples(doc)) {
    const form = formOfHeaderValue(v, true) ?? formFromText(v);
    if (form !== undefined) return { form, from: 'an example of an operation’s Authorization header' };
  }
  return undefined;
}

/** The sentence of a description that speaks of the key, for a to-do line that says what was read. */
export function keySentence(description: unknown): string | undefined {
  if (typeof description !== 'string' || description.trim() === '') return undefined;
  const sentences = description
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const sentence =
    sentences.find((s) => /authori[sz]ation|prefix|header|format/i.test(s)) ??
    sentences.find((s) => /key|token/i.test(s)) ??
    sentences[0] ??
    '';
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}
