/**
 * What a POST says it does, read from its summary and description and from the descriptions of its request
 * body's members (JSON Schema Validation §9.1 `description`) — judged before the collection's name (issue #69:
 * names did not reveal a collection of scheduled work, nor a write that changes access control, while harmless
 * collections were refused for theirs). Two verdicts:
 * - `refuse`: the item is work the target runs later or a message it sends out; creating one acts outside the
 *   write rules' item (RFC 9110 §9.2.1: a POST is not safe, and this one does more than store);
 * - `grants`: the item changes who may call the API or with what credential; like a collection of users or keys
 *   (writes.ts ACCESS_SEGMENT), taken only when nothing else can be, with a to-do.
 * Each phrasing cites the document that taught it; a sentence quoted in the to-do is the document's own.
 */
import { isObject } from './document-extensions.ts';
import type { Operation } from './operations.ts';
import { merged } from './sample-item.ts';

type Json = Record<string, unknown>;

interface Phrasing {
  readonly pattern: RegExp;
  /** What the write does, for the to-do line. */
  readonly is: string;
}

const REFUSE: readonly Phrasing[] = [
  // InfluxDB's checks (POST /api/v2/checks): `taskID` "The ID of the task associated with this check.", `every`
  // "Check repetition interval." — each check is a task the server runs on a schedule.
  { pattern: /\bthe (?:id of the )?task associated with\b/i, is: 'its items are scheduled work' },
  { pattern: /\brepetition interval\b/i, is: 'its items are scheduled work' },
  // InfluxDB's tasks and notification rules: `cron` "A task repetition schedule in the form '* * * * * *'".
  { pattern: /\b(?:repetition|run|execution) schedule\b|\bcron\b/i, is: 'its items are scheduled work' },
  // InfluxDB's notification endpoints ("Add a notification endpoint": Slack, PagerDuty, HTTP) — messages sent
  // to the outside when a rule fires.
  {
    pattern: /\bnotification (?:endpoint|rule|channel)s?\b/i,
    is: 'its items send notifications to the outside',
  },
];

const GRANTS: readonly Phrasing[] = [
  // Adyen's Management API (POST /me/allowedOrigins): "Adds an allowed origin to the list of allowed origins of
  // your API credential."
  { pattern: /\ballowed origins?\b/i, is: 'it changes access control' },
  { pattern: /\bof your API credentials?\b/i, is: 'it changes the API credential itself' },
];

export interface WriteWords {
  readonly refuse: string | undefined;
  readonly grants: string | undefined;
}

/** The texts a POST says what it does in: its own words, then its body members' descriptions. */
function textsOf(post: Operation): { text: string; where: string }[] {
  const out: { text: string; where: string }[] = [];
  for (const key of ['description', 'summary'] as const)
    if (typeof post.raw[key] === 'string') out.push({ text: post.raw[key] as string, where: `its ${key}` });
  const body = post.body === undefined ? undefined : merged(post.body);
  const properties = isObject(body?.properties) ? (body.properties as Json) : {};
  for (const [name, member] of Object.entries(properties))
    if (isObject(member) && typeof member.description === 'string')
      out.push({ text: member.description, where: `its body's ${name}` });
  return out;
}

function first(post: Operation, phrasings: readonly Phrasing[]): string | undefined {
  for (const { pattern, is } of phrasings)
    for (const { text, where } of textsOf(post)) {
      const sentence = text
        .replace(/\s+/g, ' ')
        .split(/(?<=[.!?])\s+/)
        .find((s) => pattern.test(s));
      if (sentence !== undefined) return `${is}: ${where} says "${sentence.trim()}"`;
    }
  return undefined;
}

export function writeWords(post: Operation): WriteWords {
  return { refuse: first(post, REFUSE), grants: first(post, GRANTS) };
}
